"""Which target files the suite imported from another file: named by a module name their file could
have, and only where that module's file ends as that name's would."""

import json

from mutcheck.host.project_files import imported_elsewhere


def test_a_module_of_the_same_dotted_name_from_another_file_is_named(tmp_path):
    shadowed = tmp_path / "src" / "json" / "__init__.py"  # the standard library's `json` is the one imported
    shadowed.parent.mkdir(parents=True)
    shadowed.write_text("")
    assert imported_elsewhere(str(tmp_path), [str(shadowed)]) == {"src/json/__init__.py": json.__file__}


def test_a_module_with_only_the_same_short_name_is_not(tmp_path):
    own = tmp_path / "src" / "pkg" / "json.py"  # `json` is a package: its file ends json/__init__.py
    own.parent.mkdir(parents=True)
    own.write_text("")
    never_imported = tmp_path / "src" / "pkg" / "never_imported_anywhere.py"
    never_imported.write_text("")
    lazily = tmp_path / "src" / "pkg" / "types.py"  # not imported yet; the standard library's `types` is
    lazily.write_text("")
    assert imported_elsewhere(str(tmp_path), [str(own), str(never_imported), str(lazily)]) == {}
