"""The socket layer: the game socket (consumers, routing, the client's protocol), the threads
that open sockets, a socket's session user, its group and its shared message limit."""
