"""Independent models of stkref.positions (position files, colour mirror) and stkref.parity's
verdicts (features and eval, 0 cp), written from ../shared/HARNESS.md, ../shared/SPEC-NNUE.md
"Parity rules" and docs/harnesses/eval-parity.md."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkref import parity, positions
from stkref.errors import InputError
from stkref.oracle import EvalParts


@st.composite
def boards(draw: st.DrawFn) -> chess.Board:
    board = chess.Board()
    for _ in range(draw(st.integers(0, 60))):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    return board


def model_mirror_fen(fen: str) -> str:
    """Colour mirror on the FEN text: ranks reversed, case swapped, side to move, castling and
    the en-passant rank flipped; counters kept."""
    place, stm, castle, ep, half, full = fen.split()
    place = "/".join(place.split("/")[::-1]).swapcase()
    stm = "b" if stm == "w" else "w"
    castle = "-" if castle == "-" else "".join(sorted(castle.swapcase(), key="KQkq".index))
    ep = "-" if ep == "-" else ep[0] + str(9 - int(ep[1]))
    return f"{place} {stm} {castle} {ep} {half} {full}"


# MODEL positions-colour-mirror
# checks: harness/python/stkref/positions.py  (the colour mirror of a position, as FEN text)
# contract: ../shared/SPEC-NNUE.md#integer-inference-the-engine-and-the-python-integer-oracle-compute-exactly-this
# planted: ci/mutants/model-positions-colour-mirror.patch  (ranks flipped without swapping the colours)
@given(boards())
def test_colour_mirror_equals_model(board: chess.Board) -> None:
    pos = positions.Position("c", "p1", positions.normalized_fen(board))
    m = positions.colour_mirror(pos)
    assert m.fen == model_mirror_fen(pos.fen)
    assert (m.corpus, m.id) == ("c-mirror", "p1-mirror")
    assert positions.colour_mirror(positions.colour_mirror(pos)).fen == pos.fen


def model_line(line: str, lineno: int, corpus: str) -> tuple[str, str] | None:
    """(id, FEN) of a position line, None for a blank or comment line."""
    if not line.strip() or line.lstrip().startswith("#"):
        return None
    f = line.split()
    counters = f"{f[4]} {f[5]}" if len(f) >= 6 and f[4].isdigit() and f[5].isdigit() else "0 1"
    board = chess.Board(" ".join(f[:4]) + " " + counters)
    pid = line.split('id "', 1)[1].split('"', 1)[0] if 'id "' in line else f"{corpus}:{lineno}"
    return pid, board.fen(en_passant="fen")


@st.composite
def position_lines(draw: st.DrawFn) -> str:
    fen = draw(boards()).fen(en_passant="fen")
    kind = draw(st.sampled_from(["fen", "epd", "epd-id", "blank", "comment"]))
    if kind == "fen":
        return fen
    if kind == "epd":
        return " ".join(fen.split()[:4]) + " bm e4;"
    if kind == "epd-id":
        return " ".join(fen.split()[:4]) + f' bm e4; id "x{draw(st.integers(0, 99))}";'
    return "" if kind == "blank" else "# " + fen


# MODEL positions-read-file
# checks: harness/python/stkref/positions.py  (a position file: ids, FENs, lines skipped, order)
# contract: ../shared/HARNESS.md#common-contract-for-every-harness
# planted: ci/mutants/model-positions-read-file.patch  (line numbers counted from 0)
@settings(max_examples=40)
@given(lines=st.lists(position_lines(), min_size=1, max_size=8), seed=st.integers(0, 2**32 - 1))
def test_read_positions_equals_model(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str], seed: int
) -> None:
    d = tmp_path_factory.mktemp("pos")
    want = [w for n, line in enumerate(lines, 1) if (w := model_line(line, n, "suite"))]
    path = d / "suite.epd"
    path.write_text("\n".join(lines) + "\n")
    if not want:
        with pytest.raises(InputError, match="no positions"):
            positions.read_positions(path)
        return
    got = positions.read_positions(path)
    assert [(p.id, p.fen) for p in got] == want
    assert [p.source for p in got] == [
        f"{path}:{n}" for n, line in enumerate(lines, 1) if model_line(line, n, "suite")
    ]
    # reordering the position lines (ids given) changes nothing but their order
    keyed = [ln for ln in lines if 'id "' in ln and not ln.lstrip().startswith("#")]
    if keyed:
        random.Random(seed).shuffle(keyed)
        path.write_text("\n".join(keyed) + "\n")
        again = {(p.id, p.fen) for p in positions.read_positions(path)}
        assert again == {model_line(ln, 0, "suite") for ln in keyed}


def test_bad_lines_named_by_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "s.epd"
    path.write_text(chess.STARTING_FEN + "\n\n8/8/8/8/8/8/8/8 w - -\n")
    with pytest.raises(InputError, match=rf"{path}:3: illegal position"):
        positions.read_positions(path)
    path.write_text("rnbqkbnr/pppppppp w KQkq\n")
    with pytest.raises(InputError, match=rf"{path}:1: expected at least 4 FEN fields"):
        positions.read_positions(path)


# ---------------------------------------------------------------------------------- parity

POS = positions.Position("c", "p", chess.STARTING_FEN)


def parts(e: int, b: int, psqt: int, pos_: int) -> EvalParts:
    return EvalParts(e, b, psqt, pos_)


# MODEL parity-eval-verdicts
# checks: harness/python/stkref/parity.py  (engine vs oracle: 0 cp means every part equal)
# contract: ../shared/SPEC-NNUE.md#parity-rules
# planted: ci/mutants/model-parity-eval-verdicts.patch  (a different output bucket passes)
@given(
    st.integers(-3000, 3000),
    st.integers(0, 7),
    st.integers(-500, 500),
    st.integers(0, 3),
    st.tuples(st.integers(-2, 2), st.integers(-1, 1), st.integers(-2, 2)),
)
def test_compare_evals_equals_model(
    e: int, b: int, psqt: int, tol: int, d: tuple[int, int, int]
) -> None:
    dpsqt, db, dpos = d
    oracle = parts(e, b, psqt, e - psqt)
    eng_eval = e + dpsqt + dpos
    engine = {
        "eval": eng_eval,
        "bucket": b + db,
        "psqt": psqt + dpsqt,
        "positional": e - psqt + dpos,
    }
    want_bad = abs(eng_eval - e) > tol or db != 0
    if tol == 0:
        want_bad = want_bad or dpsqt != 0 or dpos != 0
    got = parity.compare_evals([POS], [engine], [oracle], tol)
    assert len(got) == int(want_bad)


def test_compare_evals_both_ways_at_zero() -> None:
    o = parts(37, 3, 12, 25)
    keep = {"eval": 37, "bucket": 3, "psqt": 12, "positional": 25}
    assert parity.compare_evals([POS], [keep], [o], 0) == []
    for k, v in (("eval", 38), ("eval", 36), ("bucket", 4), ("psqt", 13), ("positional", 24)):
        assert len(parity.compare_evals([POS], [{**keep, k: v}], [o], 0)) == 1, k
    # the same engine parts swapped between psqt and positional still break at 0 cp
    swapped = {**keep, "psqt": 25, "positional": 12}
    assert len(parity.compare_evals([POS], [swapped], [o], 0)) == 1


# MODEL parity-feature-verdicts
# checks: harness/python/stkref/parity.py  (engine feature lists vs the reference, per perspective)
# contract: docs/harnesses/features.md#what-it-proves
# planted: ci/mutants/model-parity-feature-verdicts.patch  (the black list compared with the white reference)
@given(st.lists(boards(), min_size=1, max_size=4), st.data())
def test_compare_features_finds_each_changed_list(
    bs: list[chess.Board], data: st.DataObject
) -> None:
    from stkref.features import active_features

    pos = [positions.Position("r", f"p{i}", b.fen(en_passant="fen")) for i, b in enumerate(bs)]
    good = [(active_features(b, chess.WHITE), active_features(b, chess.BLACK)) for b in bs]
    assert parity.compare_features(pos, good) == []
    i = data.draw(st.integers(0, len(bs) - 1))
    side = data.draw(st.integers(0, 1))
    lists = [list(w) for w in good[i]]
    lists[side] = lists[side][:-1]  # one index lost: smallest break
    bad = [*good[:i], (lists[0], lists[1]), *good[i + 1 :]]
    found = parity.compare_features(pos, bad)
    assert [(m.position.id, m.perspective) for m in found] == [(f"p{i}", side == 0)]


def case_outcomes(junit: Path) -> dict[str, str]:
    import xml.etree.ElementTree as ET

    out = {}
    for c in ET.parse(junit).getroot().iter("testcase"):
        kind = next((k.tag for k in c if k.tag in ("failure", "error", "skipped")), "passed")
        out[f"{c.get('classname')}/{c.get('name')}"] = kind
    return out


# MODEL parity-eval-run
# checks: harness/python/stkref/parity.py  (parity eval end to end: 0 cp by default, symmetry exact)
# contract: ../shared/SPEC-NNUE.md#parity-rules
# planted: ci/mutants/model-parity-eval-run.patch  (--tolerance-cp defaults to 1)
@pytest.mark.parametrize(
    ("defect", "tolerance", "status", "failed"),
    [
        ("", None, 0, set()),  # an exact engine keeps
        (
            "eval-black-plus-one",
            None,
            1,
            {"engine-vs-oracle", "engine-vs-oracle-mirror", "engine-mirror-symmetry"},
        ),
        # 1 cp allowed: the parity cases keep, the exact engine-mirror symmetry still breaks
        ("eval-black-plus-one", "1", 1, {"engine-mirror-symmetry"}),
    ],
)
def test_parity_eval_run_both_ways(
    tmp_path: Path,
    fake_engine: Path,
    net128: Path,
    monkeypatch: pytest.MonkeyPatch,
    defect: str,
    tolerance: str | None,
    status: int,
    failed: set[str],
) -> None:
    from stkref.cli import run_tool

    monkeypatch.setenv("FAKE_STK_DEFECT", defect)
    epd = tmp_path / "p.epd"
    epd.write_text(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
        "8/5k2/8/2p5/8/8/1PP5/4K3 w - - 0 1\n"
    )
    argv = ["eval", "--engine", str(fake_engine), "--net", str(net128), "--epd", str(epd)]
    argv += ["--random", "0", "--no-curated", "--no-spec", "--reports-dir", str(tmp_path / "r")]
    argv += ["--tolerance-cp", tolerance] if tolerance else []
    assert run_tool(lambda: parity.main(argv)) == status
    outcomes = case_outcomes(tmp_path / "r" / "junit" / "eval-default.xml")
    assert {k.split("/")[1] for k, v in outcomes.items() if v != "passed"} == failed


# MODEL parity-features-run
# checks: harness/python/stkref/parity.py  (parity features end to end: one wrong index fails its case)
# contract: docs/harnesses/features.md#verdicts
# planted: ci/mutants/model-parity-features-run.patch  (lists compared by their lengths only)
@pytest.mark.parametrize(
    ("defect", "status", "bad"),
    [("", 0, set()), ("flip-index", 1, {"failure"}), ("drop-line", 1, {"error"})],
)
def test_parity_features_run_both_ways(
    tmp_path: Path,
    fake_engine: Path,
    monkeypatch: pytest.MonkeyPatch,
    defect: str,
    status: int,
    bad: set[str],
) -> None:
    from stkref.cli import run_tool

    monkeypatch.setenv("FAKE_STK_DEFECT", defect)
    epd = tmp_path / "p.epd"
    epd.write_text(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n"
        "8/5k2/8/2p5/8/8/1PP5/4K3 w - - 0 1\n"
    )
    argv = ["features", "--engine", str(fake_engine), "--epd", str(epd), "--random", "0"]
    argv += ["--no-curated", "--no-spec", "--reports-dir", str(tmp_path / "r")]
    assert run_tool(lambda: parity.main(argv)) == status
    outcomes = case_outcomes(tmp_path / "r" / "junit" / "features-default.xml")
    assert {v for v in outcomes.values() if v != "passed"} == bad


# MODEL parity-spec-vectors
# checks: harness/python/stkref/parity.py  (the engine's start-position lists against the spec's literal vectors)
# contract: ../shared/SPEC-NNUE.md#features-halfka-with-32-king-buckets-and-11-piece-kinds-22528-per-perspective
# planted: ci/mutants/model-parity-spec-vectors.patch  (only a list longer than 31 flagged, not a shorter one)
@given(st.data())
def test_spec_vector_verdicts_both_ways(data: st.DataObject) -> None:
    from stkref.features import active_features

    start = chess.Board()
    good = (active_features(start, chess.WHITE), active_features(start, chess.BLACK))
    assert parity.spec_vector_problems(good) == []  # the spec's own lists: keep
    change = data.draw(st.sampled_from(["drop", "extra", "replace-required", "other-bucket"]))
    lst = list(good[0])  # the same change to both lists: colour symmetry still holds
    if change == "drop":  # one index fewer (not a required one): 30 indices
        lst.remove(data.draw(st.sampled_from([i for i in lst if i not in (2127, 2120, 2811)])))
    elif change == "extra":  # one index more in the same bucket
        lst.append(3 * 11 * 64 + 4 * 64 + 27)
    elif change == "replace-required":
        r = data.draw(st.sampled_from([2127, 2120, 2811]))
        lst[lst.index(r)] = r + 1 if r + 1 not in lst else r - 1
    else:  # the same squares in bucket 2: every index 704 lower
        lst = [i - 704 for i in lst]
    assert parity.spec_vector_problems((lst, list(lst))) != []


# MODEL positions-random-corpus
# checks: harness/python/stkref/positions.py  (the seeded random corpus: legal, reproducible, a longer run extends a shorter)
# contract: ../shared/HARNESS.md#common-contract-for-every-harness
# planted: ci/mutants/model-positions-random-corpus.patch  (the generator seeded with the seed and the count)
@settings(max_examples=10)
@given(st.integers(0, 2**64 - 1), st.integers(0, 6), st.integers(0, 4))
def test_random_corpus_is_seeded_and_extends(seed: int, n: int, more: int) -> None:
    short = positions.random_positions(n, seed, max_plies=40)
    longer = positions.random_positions(n + more, seed, max_plies=40)
    assert longer[:n] == short  # the first n positions do not depend on how many are drawn
    assert positions.random_positions(n + more, seed, max_plies=40) == longer
    for i, p in enumerate(longer):
        board = chess.Board(p.fen)
        assert board.is_valid() and p.fen == board.fen(en_passant="fen")
        assert (p.corpus, p.id) == ("random", f"random-s{seed}-{i}")
