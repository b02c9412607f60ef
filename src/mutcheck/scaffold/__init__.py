"""`mutcheck init`: the configuration, the first catalog and the workflows a project gets."""
