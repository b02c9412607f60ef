"""Our sentences read right for one and for many, in every language."""

import re

from mutcheck.core.texts import say, strings


def test_one_and_many_each_get_their_own_words():
    assert say("en", "text", "truncated", count=1).startswith("1 more row is not shown here")
    assert say("en", "text", "truncated", count=3).startswith("3 more rows are not shown here")
    assert say("en", "terminal", "unreviewed_gaps", count=1) == "1 unreviewed gap"
    assert say("en", "terminal", "unreviewed_gaps", count=2) == "2 unreviewed gaps"
    assert say("zh", "terminal", "unreviewed_gaps", count=1) == "待审阅的缺口 1 个"  # no plural to choose


def test_no_sentence_hedges_a_plural_and_every_choice_names_a_value_it_is_given():
    for group, keys in strings().items():
        for key, texts in keys.items():
            for lang, text in texts.items():
                assert not re.search(r"\w\((s|es|ies)\)", text.replace("line(s) {lines}", "")), (group, key, lang)
                for name in re.findall(r"«(\w+)\|", text):
                    assert "{" + name + "}" in text, (group, key, lang, name)
