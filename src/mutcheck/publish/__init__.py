"""GitHub and Actions: the pull-request comment, inline findings, the artifact's workflow side."""
