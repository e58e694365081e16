"""The game runtime: the games a process holds, the broadcast to a game's group, the threads
that apply actions and the solver pool. Below the services; never imports them or the socket
layer (an import contract)."""
