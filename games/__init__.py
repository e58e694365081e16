"""The games app: accounts, deals and play.  The rules engine lives in ``games.engine``."""
