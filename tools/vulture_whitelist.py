"""Definitions that ``vulture linter rules tools/vulture_whitelist.py`` cannot see used.

vulture reads names, not strings nor frameworks: what is listed here is used by name
through a table, by a library calling back, by the tests, or is a data field kept
for provenance.  Anything else vulture reports is dead: delete it.  (Parsed by
vulture, never imported.)
"""
# ruff: noqa
# flake8: noqa

# named as "module:function" by the rows of linter.kinds.KINDS, looked up when used
check_dockerfile, check_markdown, check_python, check_shell, check_yaml  # linter/fix_check.py
helm_comments, markdown_comments  # linter/sources/comments.py

# used by the tests
_.from_text, _.byte_offset  # linter/source_file.py
hidden  # linter/knowledge.py OptionSpec.hidden (tests/linter/test_fix_property.py)

# provenance of a fact, set when it is loaded (rules/_lib/preflight.py)
source

# fields of the typed knowledge (linter/knowledge.py): every key migrations.yaml and models.yaml may
# hold is a field, filled by name from the YAML (an unknown key fails), whether a rule reads it yet or not
added_in, replacement_available_in, rejected_by, per_release, still_read_by, names_per_release, issue
releases, examples, portable_rewrite, twins, hidden_no_forms, schema, behaviour
original_max_position_embeddings, size_source
