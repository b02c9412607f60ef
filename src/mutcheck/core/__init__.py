"""Words every stage shares: problems and input errors, outcomes, exit codes, verdict names, the
string table, TOML reading, project paths, git, source text, escaping untrusted text."""
