"""`--shard k/n`: which part of the catalog one of n parallel runs takes."""

import hashlib
from dataclasses import dataclass

from mutcheck.core.problems import InputError, Problem


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    count: int

    @classmethod
    def parse(cls, text: str) -> "Shard":
        try:
            index, count = (int(part) for part in text.split("/"))
        except ValueError:
            index = count = 0
        if not 1 <= index <= count:
            raise InputError([Problem("--shard", "", "", f"expected k/n with 1 <= k <= n, got {text!r}")])
        return cls(index, count)

    def keeps(self, mutant_id: str) -> bool:
        """Deterministic, and independent of the catalog's order and size."""
        digest = int.from_bytes(hashlib.sha256(mutant_id.encode()).digest()[:8], "big")
        return digest % self.count == self.index - 1
