from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest

from stkref.checknet import main as checknet_main
from stkref.cli import run_tool
from stkref.errors import NetFormatError
from stkref.model import QuantizedModel
from stkref.netfile import NetSlot, decode, encode, read, write
from stkref.spec import net_file_size


def test_sizes_match_spec() -> None:
    assert net_file_size(1024) == 46_997_305
    assert net_file_size(128) == 6_510_649


def test_round_trip(tmp_path: Path, model128: QuantizedModel) -> None:
    path = tmp_path / "a.nnue"
    write(model128, path)
    assert path.stat().st_size == 6_510_649
    back = read(path)
    assert back.equals(model128)
    assert back.digest() == model128.digest()
    assert encode(back) == path.read_bytes()


def test_explicit_little_endian_layout(model128: QuantizedModel) -> None:
    m = decode(encode(model128))  # an independent copy
    m.ft_weight[0, 0] = 0x0102
    m.psqt_weight[0, 0] = -2
    m.out_bias[7] = 0x01020304
    data = encode(m)
    assert data[:9] == b"STKHALFKA"
    assert struct.unpack_from("<IIII", data, 9) == (1, 22528, 128, 8)
    assert data[25:27] == b"\x02\x01"
    psqt_off = 25 + 2 * 22528 * 128 + 2 * 128
    assert data[psqt_off : psqt_off + 4] == b"\xfe\xff\xff\xff"
    assert data[-4:] == b"\x04\x03\x02\x01"  # the last field is bucket 7's output bias


@pytest.fixture(scope="module")
def good_bytes(net128: Path) -> bytes:
    return net128.read_bytes()


def _write(tmp_path: Path, data: bytes, name: str = "bad.nnue") -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    return p


def _patch_u32(data: bytes, offset: int, value: int) -> bytes:
    return data[:offset] + struct.pack("<I", value) + data[offset + 4 :]


def test_short_file(tmp_path: Path, good_bytes: bytes) -> None:
    p = _write(tmp_path, good_bytes[:-1])
    with pytest.raises(NetFormatError) as e:
        read(p)
    msg = str(e.value)
    assert str(p) in msg and "short file" in msg
    assert "6510649" in msg and "6510648" in msg


def test_truncated_header(tmp_path: Path, good_bytes: bytes) -> None:
    p = _write(tmp_path, good_bytes[:10])
    with pytest.raises(NetFormatError, match=r"short file.*actual size 10"):
        read(p)


def test_trailing_bytes_rejected_unless_allowed(
    tmp_path: Path, good_bytes: bytes, model128: QuantizedModel
) -> None:
    p = _write(tmp_path, good_bytes + b"\0")
    with pytest.raises(NetFormatError) as e:
        read(p)
    msg = str(e.value)
    assert str(p) in msg and "1 trailing bytes" in msg and "6510650" in msg
    assert read(p, allow_trailing=True).equals(model128)


@pytest.mark.parametrize(
    "field,offset,value",
    [("version", 9, 2), ("features", 13, 22529), ("hidden", 17, 256), ("buckets", 21, 4)],
)
def test_wrong_header_field(
    tmp_path: Path, good_bytes: bytes, field: str, offset: int, value: int
) -> None:
    p = _write(tmp_path, _patch_u32(good_bytes, offset, value))
    with pytest.raises(NetFormatError) as e:
        read(p)
    msg = str(e.value)
    assert str(p) in msg
    assert f"field '{field}' at byte offset {offset}" in msg
    assert f"found {value}" in msg


def test_wrong_magic(tmp_path: Path, good_bytes: bytes) -> None:
    p = _write(tmp_path, b"STKHALFKB" + good_bytes[9:])
    with pytest.raises(NetFormatError, match=r"field 'magic' at byte offset 0.*STKHALFKB"):
        read(p)


def test_hidden_1024_header_on_128_body_is_short(tmp_path: Path, good_bytes: bytes) -> None:
    p = _write(tmp_path, _patch_u32(good_bytes, 17, 1024))
    with pytest.raises(NetFormatError, match="expected size 46997305 bytes for hidden=1024"):
        read(p)


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(NetFormatError, match="cannot read"):
        read(tmp_path / "missing.nnue")


def test_failed_load_leaves_active_net_untouched(
    tmp_path: Path, net128: Path, good_bytes: bytes
) -> None:
    slot = NetSlot()
    active = slot.load(net128)
    digest = active.digest()
    for bad in (good_bytes[:-1], good_bytes + b"x", _patch_u32(good_bytes, 9, 7)):
        with pytest.raises(NetFormatError):
            slot.load(_write(tmp_path, bad))
        assert slot.model is active and slot.path == str(net128)
        assert slot.model.digest() == digest


def test_decoded_arrays_are_independent_of_the_buffer(good_bytes: bytes) -> None:
    buf = bytearray(good_bytes)
    m = decode(bytes(buf))
    before = m.digest()
    buf[25:27] = b"\xff\x7f"
    assert m.digest() == before
    m.ft_weight[0, 0] += 1  # writable: the model owns its memory


def test_checknet_cli(
    tmp_path: Path, net128: Path, good_bytes: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_tool(lambda: checknet_main([str(net128)])) == 0
    out = capsys.readouterr().out
    assert "hidden    128" in out and "size      6510649 bytes" in out and "sha256" in out
    bad = _write(tmp_path, good_bytes + b"\0")
    assert run_tool(lambda: checknet_main([str(bad)])) == 2
    assert "trailing" in capsys.readouterr().err
    assert run_tool(lambda: checknet_main([str(bad), "--allow-trailing"])) == 0


def test_checknet_as_module(tmp_path: Path, good_bytes: bytes) -> None:
    bad = _write(tmp_path, _patch_u32(good_bytes, 21, 9))
    proc = subprocess.run(
        [sys.executable, "-m", "stkref.checknet", str(bad)], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "field 'buckets' at byte offset 21" in proc.stderr and "found 9" in proc.stderr
