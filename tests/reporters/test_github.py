from linter.reporters import reporter
from linter.reporters.github import escape_data, escape_property
from tests.reporters.conftest import SCRIPT


def test_escaping_follows_the_actions_runner():
    assert escape_data("100% a:b, c\r\nd") == "100%25 a:b, c%0D%0Ad"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_one_annotation_per_diagnostic_by_severity(results):
    lines = reporter("github")(results).splitlines()
    assert len(lines) == 5
    line_text = SCRIPT.splitlines()[2]
    col = line_text.index("--max-num-seq") + 1  # characters, not bytes
    assert lines[1] == (
        f"::error file=deploy/serve.sh,line=3,col={col},endLine=3,endColumn={col + len('--max-num-seq')},title=VL102::"
        "`--max-num-seq` was renamed to `--max-num-seqs` [vLLM 0.32.0]%0Asafe fix: Rename to `--max-num-seqs`"
    )
    kinds = [line.split(" ", 1)[0] for line in lines]
    assert kinds == ["::notice", "::error", "::warning", "::error", "::error"]
    multi = next(line for line in lines if "title=VL205" in line)
    assert ",line=3," in multi and ",endLine=4," in multi
    assert multi.endswith("::option spans lines: 100%25 of 2, a:b, c%0D%0Ad [vLLM 0.32.0]")
    assert "(モデル)" in next(line for line in lines if "title=VL101" in line)
    assert lines[-1] == "::error file=deploy/broken.yaml,line=1,col=1,endLine=1,endColumn=1,title=VL003::cannot read: permission denied"


def test_property_values_are_escaped(tmp_path):
    from linter.diagnostic import Diagnostic
    from linter.engine import FileResult
    from linter.launch import Span

    d = Diagnostic("VL001", "bad", "odd,name:x.yaml", Span(0, 0))
    (line,) = reporter("github")([FileResult("odd,name:x.yaml", [d])]).splitlines()
    assert line.startswith("::error file=odd%2Cname%3Ax.yaml,line=1,")


def test_clean_run_prints_nothing(clean):
    assert reporter("github")(clean) == ""
