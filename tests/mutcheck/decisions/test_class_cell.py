"""An edit that deletes a method's last `super()` is swapped in the method: its class cell is kept, the
class body made at import compiles as before, and the live method runs the mutant."""

from mutcheck.core.source_text import Span, line_offsets
from mutcheck.host.swap import LiveFunctions, code_fingerprint, own_parts, prepare_swap
from mutcheck.mutation.class_cell import carried, lost_cells
from mutcheck.mutation.edit_code import FileCode
from tests.mutcheck.decisions.loaded import load

SOURCE = '''\
class Base:
    def describe(self):
        return "base"

    def tags(self):
        return ["base"]


class Loud(Base):
    def describe(self):
        """Shouted."""
        return super().describe().upper()

    def tags(self):
        def more():
            return super(Loud, self).tags() + ["loud"]

        return more()

    def plain(self):
        return "plain"
'''


def compiled(source: str):
    return compile(source, "m.py", "exec", dont_inherit=True)


def codes(code):
    """Every code object in `code`, by qualified name."""
    found = {code.co_qualname: code}
    for constant in code.co_consts:
        if hasattr(constant, "co_code"):
            found.update(codes(constant))
    return found


def span_of(text: str, part: str) -> Span:
    """The span of `part`'s one occurrence on one line of `text`."""
    at = text.index(part)
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1)
    return Span(line, column, line, column + len(part))


def test_deleting_the_last_super_drops_the_cell_of_the_class_made_at_import():
    """Why the cell must be kept: without it the class body's own code changes."""
    mutated = compiled(SOURCE.replace("super().describe().upper()", '"BASE"'))
    assert lost_cells(compiled(SOURCE), mutated) == {("Loud.describe", 10)}
    assert own_parts(codes(compiled(SOURCE))["Loud"]) != own_parts(codes(mutated)["Loud"])


def test_the_kept_cell_leaves_the_class_body_as_it_was_and_changes_the_method():
    source = SOURCE.replace("super().describe().upper()", '"BASE"')
    tree, kept = carried(source, "m.py", compiled(SOURCE), compiled(source))
    assert tree is not None
    original, after = codes(compiled(SOURCE)), codes(kept)
    assert code_fingerprint(original["Loud"]) != code_fingerprint(after["Loud"])  # it holds the new method
    assert own_parts(original["Loud"]) == own_parts(after["Loud"])
    assert after["Loud.describe"].co_freevars == ("__class__",)
    assert after["Loud.describe"].co_consts[0] == "Shouted."  # still its docstring
    assert code_fingerprint(after["Loud.plain"]) == code_fingerprint(original["Loud.plain"])


def test_an_edit_that_keeps_super_is_compiled_as_it_is():
    source = SOURCE.replace('+ ["loud"]', '+ ["quiet"]')
    mutated = compiled(source)
    assert carried(source, "m.py", compiled(SOURCE), mutated) == (None, mutated)


def test_the_method_is_the_swap_alone_or_whole_and_the_live_method_runs_the_mutant(tmp_path):
    module, path = load(tmp_path, SOURCE, "loud_describe")
    file = FileCode(path, SOURCE, line_offsets(SOURCE), compiled(SOURCE))
    span = span_of(SOURCE, "super().describe().upper()")
    edit = file.compile_edit(span, '"BASE".lower()', "Loud.describe")
    assert (edit.equivalent, edit.swap_target) == (False, "Loud.describe")
    original = compile(SOURCE, path, "exec", dont_inherit=True)
    swap, reason = prepare_swap(LiveFunctions([path]), path, original, edit.marked, edit.swap_target)
    assert reason is None
    assert module.Loud().describe() == "BASE"
    swap.apply()
    assert module.Loud().describe() == "base"
    assert swap.marker.count() == 1


def test_a_nested_function_s_last_super_is_swapped_in_the_method_that_makes_it(tmp_path):
    module, path = load(tmp_path, SOURCE, "loud_tags")
    file = FileCode(path, SOURCE, line_offsets(SOURCE), compiled(SOURCE))
    span = span_of(SOURCE, 'super(Loud, self).tags() + ["loud"]')
    edit = file.compile_edit(span, '["loud"]', "Loud.tags")
    assert edit.swap_target == "Loud.tags"
    original = compile(SOURCE, path, "exec", dont_inherit=True)
    swap, reason = prepare_swap(LiveFunctions([path]), path, original, edit.marked, edit.swap_target)
    assert reason is None
    swap.apply()
    assert module.Loud().tags() == ["loud"]
