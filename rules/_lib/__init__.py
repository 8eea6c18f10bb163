"""What the rules share and are not rules themselves: the rule type and registry
(:mod:`.base`), readers of the curated facts (:mod:`.facts`, :mod:`.lifecycle`,
:mod:`.hybrid_facts`) and the pre-flight memory model (:mod:`.preflight`).
The registry walks ``rules/`` and skips this package."""
