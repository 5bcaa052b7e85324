"""stkdev.import_cycles, the lint step that keeps the Python packages free of import circles."""

from __future__ import annotations

from pathlib import Path

from stkdev import import_cycles


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_project_has_no_import_circle():
    assert import_cycles.cycles(import_cycles.import_graph([import_cycles.PYTHON_ROOT])) == []


def test_a_circle_through_a_deferred_import_is_found(tmp_path: Path):
    # The shape stkref.fhmodel and stkref.fhrecords had: one side imports at the top, the other
    # inside a function.
    root = _package(
        tmp_path,
        {
            "stkref/__init__.py": "",
            "stkref/model.py": "from .records import FLAG\n",
            "stkref/records.py": "FLAG = 1\n\ndef dump():\n    from .model import predict\n",
        },
    )
    assert import_cycles.cycles(import_cycles.import_graph([root])) == [
        ["stkref.model", "stkref.records", "stkref.model"]
    ]
    assert import_cycles.main([str(root)]) == 1


def test_a_circle_across_packages_and_through_from_package_import(tmp_path: Path):
    root = _package(
        tmp_path,
        {
            "stkmutation/__init__.py": "",
            "stkmutation/tool.py": "import stkmutation.campaign\n",
            "stkmutation/campaign.py": "from stkmutation import tool\n",
            "stkdev/__init__.py": "",
            "stkdev/a.py": "import stkref.b\n",
            "stkref/__init__.py": "",
            "stkref/b.py": "from stkdev import a\n",
        },
    )
    found = import_cycles.cycles(import_cycles.import_graph([root]))
    assert sorted(found) == [
        ["stkdev.a", "stkref.b", "stkdev.a"],
        ["stkmutation.campaign", "stkmutation.tool", "stkmutation.campaign"],
    ]


def test_one_way_imports_and_a_package_importing_its_modules_are_no_circle(tmp_path: Path):
    root = _package(
        tmp_path,
        {
            "stkref/__init__.py": "from . import flags, records\n",
            "stkref/flags.py": "FLAG = 1\n",
            "stkref/records.py": "from .flags import FLAG\nimport stkref\n",
        },
    )
    assert import_cycles.cycles(import_cycles.import_graph([root])) == []
    assert import_cycles.main([str(root)]) == 0


def test_the_reference_importing_the_trainer_is_a_layer_breach(tmp_path: Path):
    # stktrain builds on stkref; stkref (what the C++ must equal) must not lean on the trainer.
    root = _package(
        tmp_path,
        {
            "stkref/__init__.py": "",
            "stkref/oracle.py": "from stktrain.train import fit\n",
            "stktrain/__init__.py": "",
            "stktrain/train.py": "from stkref.spec import X\n",
            "stkref/spec.py": "X = 1\n",
        },
    )
    graph = import_cycles.import_graph([root])
    assert import_cycles.layer_breaches(graph) == [("stkref.oracle", "stktrain.train")]
    assert import_cycles.main([str(root)]) == 1
