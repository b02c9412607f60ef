"""Fast in-process tests of mutcheck's decision logic: the suite its own catalog (mutants/self) runs against."""
