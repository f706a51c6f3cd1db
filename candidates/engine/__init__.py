"""The allocation engine (RULES.md §3–§4 and §8), PURE: every module here imports only the standard
library, ``contests.quotas`` and the other modules of this package. ``allocation`` is the façade;
``reference`` is the slow, literal reading of RULES §4 that the fast engine must agree with."""
