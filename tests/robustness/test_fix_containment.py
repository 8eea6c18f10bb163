"""``--fix`` writes only inside the paths it was given: never through a symbolic link out of
the tree, never to a ``--config`` file outside it."""

from __future__ import annotations

from pathlib import Path

from tests.robustness.conftest import run_cli

CONFIG = "max-num-seqs: 64\nenable_prefix_caching: false\ngpu-memory-utilization: 0.9\n"
SCRIPT = "vllm serve m --max-num-seq 8\n"  # VL201, a safe fix


def test_fix_stays_inside_the_tree(tmp_path: Path) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    outside.mkdir()
    (outside / "abs.yaml").write_text(CONFIG)
    (outside / "rel.yaml").write_text(CONFIG)
    (outside / "o.sh").write_text(SCRIPT)
    (tree / "link.sh").symlink_to(outside / "o.sh")
    (tree / "in.yaml").write_text(CONFIG)
    (tree / "serve.sh").write_text(
        f"vllm serve m --config {outside / 'abs.yaml'} --max-num-seq 8\n"
        "vllm serve m --config ../outside/rel.yaml\n"
        "vllm serve m --config in.yaml\n"
    )
    before = {p.name: p.read_bytes() for p in outside.iterdir()}
    code, diags, err = run_cli(["--fix", "--unsafe-fixes", "."], tree)
    assert {p.name: p.read_bytes() for p in outside.iterdir()} == before  # nothing outside changed
    # the outside config files are not even read: the launch naming them says so
    assert [d["code"] for d in diags if d["filename"].endswith("serve.sh")] == ["VL003", "VL003"]
    # inside the tree the fixes were applied, the named config included
    assert "--max-num-seqs 8" in (tree / "serve.sh").read_text()
    assert (tree / "in.yaml").read_text() != CONFIG
    # what was not fixed is still reported
    assert not any(d["filename"].endswith(("abs.yaml", "rel.yaml")) for d in diags)
    assert any(d["filename"].endswith("link.sh") and d["code"] == "VL003" for d in diags)
    assert code == 1


def test_fix_through_a_link_inside_the_tree(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.sh").write_text(SCRIPT)
    (tmp_path / "alias.sh").symlink_to(tmp_path / "real" / "a.sh")
    code, _diags, _err = run_cli(["--fix", str(tmp_path / "alias.sh")], tmp_path)
    assert (tmp_path / "alias.sh").is_symlink()
    assert "--max-num-seqs 8" in (tmp_path / "real" / "a.sh").read_text()
    # given by name, the link's target is outside the path given: nothing else is written
    (tmp_path / "b.sh").write_text(SCRIPT)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "to-b.sh").symlink_to(tmp_path / "b.sh")
    run_cli(["--fix", "sub"], tmp_path)
    assert (tmp_path / "b.sh").read_text() == SCRIPT
