"""Forms as a person meets them: read from the rendered page, filled field by field, submitted to the form's
own action. A test that builds a POST by hand proves the view; this proves the screen (a form that renders no
field cannot be filled here, so the test fails where a person would be stuck)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.test import Client


@dataclass
class RenderedForm:
    action: str
    method: str
    # name -> value as rendered (checkboxes only when checked, a list when several of one name are;
    # selects: the selected option or the first)
    values: dict[str, str | list[str]] = field(default_factory=dict)
    # every named control a person can fill, hidden ones excluded
    visible: list[str] = field(default_factory=list)


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[RenderedForm] = []
        self._select: str | None = None
        self._select_first: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.forms.append(RenderedForm(action=a.get("action", ""), method=a.get("method", "get").lower()))
            return
        if not self.forms or "name" not in a:
            if tag == "option" and self._select is not None:
                self._option(a)
            return
        current, name = self.forms[-1], a["name"]
        if tag == "input":
            kind = a.get("type", "text")
            if kind in {"submit", "button", "reset", "image"}:
                return
            if kind != "hidden":
                current.visible.append(name)
            if kind in {"checkbox", "radio"}:
                if "checked" in a:
                    value = a.get("value", "on")
                    before = current.values.get(name)
                    if kind == "checkbox" and before is not None:  # a table of checkboxes: every one ticked
                        current.values[name] = [*(before if isinstance(before, list) else [before]), value]
                    else:
                        current.values[name] = value
            else:
                current.values[name] = a.get("value", "")
        elif tag == "textarea":
            current.visible.append(name)
            current.values[name] = ""
            self._textarea = name
        elif tag == "select":
            current.visible.append(name)
            self._select, self._select_first = name, None

    def _option(self, a: dict[str, str]) -> None:
        current = self.forms[-1]
        assert self._select is not None
        if self._select_first is None:
            self._select_first = a.get("value", "")
            current.values.setdefault(self._select, self._select_first)
        if "selected" in a:
            current.values[self._select] = a.get("value", "")

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            current = self.forms[-1].values
            current[self._textarea] = f"{current[self._textarea]}{data}"

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea":
            self._textarea = None
        elif tag == "select":
            self._select = None


def forms_on(html: str) -> list[RenderedForm]:
    parser = _FormParser()
    parser.feed(html)
    return parser.forms


def post_form(client: Client, url: str, fill: dict[str, str], *, containing: str | None = None, follow=False):
    """GET ``url``, take its POST form that renders ``containing`` (default: every field of ``fill``), fill
    ``fill`` into fields the page rendered (a name the page does not render fails the test), submit it to the
    form's action."""
    page = client.get(url)
    assert page.status_code == 200, f"{url}: {page.status_code}"
    posts = [form for form in forms_on(page.content.decode()) if form.method == "post"]
    wanted = {containing} if containing else set(fill)
    candidates = [form for form in posts if wanted <= set(form.visible)]
    shown = sorted({name for form in posts for name in form.visible})
    assert candidates, f"{url}: nenhum formulário mostra {sorted(wanted)}; campos mostrados: {shown}"
    form = candidates[0]
    missing = sorted(set(fill) - set(form.visible))
    assert not missing, f"{url}: campos que a página não mostra: {missing}"
    return client.post(form.action or url, {**form.values, **fill}, follow=follow)
