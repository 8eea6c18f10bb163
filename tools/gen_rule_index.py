"""Write ``rules/data/rule_index.json``: each rule module's codes and source checksum.

    python -m tools.gen_rule_index          # rewrite it
    python -m tools.gen_rule_index --check  # exit 1 if it is out of date

With it a run imports only the rule modules whose codes the selection keeps, and
``--explain CODE`` / a configuration's code check import none or one
(:func:`rules._lib.base.rule_index`).  A stale index is never trusted: a module
added, removed or edited since makes every module be imported, and
``tests/rules/test_rule_index.py`` fails until the index is written again.
"""

from __future__ import annotations

import json
import sys


def text() -> str:
    from rules._lib.base import index_data

    return json.dumps(index_data(), indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    from rules._lib.base import INDEX
    from tools.generated import write_or_check

    argv = sys.argv[1:] if argv is None else argv
    return write_or_check(INDEX, text(), "--check" in argv, f"{INDEX} is out of date: run python -m tools.gen_rule_index")


if __name__ == "__main__":
    raise SystemExit(main())
