"""Privacy: the device cookie and the keyed hashes of sightings, what a deletion keeps."""
