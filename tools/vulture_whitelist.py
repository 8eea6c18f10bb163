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

# libcst calls a visitor's visit_<Node>/leave_<Node> methods and a CodegenState's hooks
_.visit_WithItem, _.visit_AnnAssign, _.leave_FunctionDef, _.leave_ClassDef  # linter/sources/python.py
_.add_indent_tokens, _.add_token, _.pop_trailing_newline, _.before_codegen, _.after_codegen, _.record_syntactic_position

# used by the tests
_.from_text, _.byte_offset  # linter/source_file.py
hidden  # linter/knowledge.py OptionSpec.hidden (tests/linter/test_fix_property.py)

# rules registered by the assignment (rules/input_problem.py)
parse_error, not_text

# provenance of a fact, set when it is loaded (rules/hybrid_facts.py, rules/preflight.py)
source
