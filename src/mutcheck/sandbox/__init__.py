"""Where project code runs: scratch copies, processes and their sessions, import redirection, interrupts."""
