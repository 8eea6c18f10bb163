from linter.offset_map import OffsetMap


def test_segments_map_each_line_of_a_block_scalar():
    # file: "run: |\n  vllm serve m\n  --tp 2\n"; the script is "vllm serve m\n--tp 2\n"
    text = "run: |\n  vllm serve m\n  --tp 2\n"
    script = "vllm serve m\n--tp 2\n"
    m = OffsetMap()
    m.add(0, text.index("vllm"), len("vllm serve m\n"))
    m.add(len("vllm serve m\n"), text.index("--tp"), len("--tp 2\n"))
    for i, ch in enumerate(script):
        assert text[m.to_file(i)] == ch
    start = script.index("--tp")
    assert m.contiguous(start, start + 4) == text.index("--tp")
    # a range across the dropped indentation is not contiguous in the file
    assert m.contiguous(script.index("m\n"), start + 2) is None


def test_adjacent_segments_merge_and_nearest_points_somewhere_sane():
    m = OffsetMap(fallback=5)
    m.add(0, 10, 3)
    m.add(3, 13, 2)
    assert m.segments == [(0, 10, 5)]
    assert m.nearest(99) == 15
    assert OffsetMap(fallback=5).nearest(0) == 5
