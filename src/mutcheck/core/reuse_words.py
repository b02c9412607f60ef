"""The words reuse explains its decisions with (see `reuse.decide`), shared with the results that report them."""

NOT_STORED = "not-stored"  # no outcome of this test under this mutant is kept (a first run, or one not kept)
MUTANT = "mutant"  # the mutant's edit changed
IN_ORDER = "in-order"  # another test of the mutant runs again that only a run in the suite's order settled
TIME_LIMIT = "time-limit"  # the test took longer under the mutant than today's limit allows
KEY = "key:"  # a part of the run's key changed (see `reuse.key`): python, packages, settings, …
NAME = "name:"  # a name the test's code refers to is bound differently at module level
