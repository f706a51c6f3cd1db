"""Forms as a person meets them: read from the rendered page, filled field by field, submitted to the form's
own action. A test that builds a POST by hand proves the view; this proves the screen (a form that renders no
field cannot be filled here, so the test fails where a person would be stuck)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.test import Client


@dataclass
class Control:
    """One named control as rendered: its kind (the input's type, ``select``, ``textarea``), whether the page
    marks it required, and the values a person may choose (options of a select, radios or checkboxes of the
    same name)."""

    name: str
    kind: str
    required: bool = False
    multiple: bool = False
    disabled: bool = False
    options: list[str] = field(default_factory=list)
    placeholder: str = ""


@dataclass
class RenderedForm:
    action: str
    method: str
    # name -> value as rendered (checkboxes and radios only when checked, a group of checkboxes or a multiple
    # select as a list; selects: the selected option or the first)
    values: dict[str, str | list[str]] = field(default_factory=dict)
    # every named control a person can fill, hidden ones excluded
    visible: list[str] = field(default_factory=list)
    # the same controls with their kind, requiredness and options, in page order (one per name)
    controls: dict[str, Control] = field(default_factory=dict)
    enctype: str = ""
    # the submit buttons, (name, value, class): a named one sends its value when clicked
    buttons: list[tuple[str, str, str]] = field(default_factory=list)

    def button(self) -> dict[str, str]:
        """What clicking the button a person would click sends: the primary one, else the first."""
        primary = [b for b in self.buttons if "primary" in b[2]] or self.buttons
        return {primary[0][0]: primary[0][1]} if primary and primary[0][0] else {}


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
            self.forms.append(
                RenderedForm(
                    action=a.get("action", ""),
                    method=a.get("method", "get").lower(),
                    enctype=a.get("enctype", ""),
                )
            )
            return
        is_button = tag == "button" and a.get("type", "submit").lower() == "submit"
        if self.forms and (
            is_button or (tag == "input" and a.get("type", "").lower() in {"submit", "image"})
        ):
            self.forms[-1].buttons.append((a.get("name", ""), a.get("value", ""), a.get("class", "")))
            return
        if not self.forms or "name" not in a:
            if tag == "option" and self._select is not None:
                self._option(a)
            return
        current, name = self.forms[-1], a["name"]
        if tag == "input":
            kind = a.get("type", "text").lower()
            if kind in {"submit", "button", "reset", "image"}:
                return
            if kind != "hidden" and name not in current.visible:
                current.visible.append(name)
            control = self._control(name, kind, a)
            if kind in {"checkbox", "radio"}:
                control.options.append(a.get("value", "on"))
                if "checked" in a:
                    self._check(name, kind, a.get("value", "on"))
            elif kind != "file":
                current.values[name] = a.get("value", "")
        elif tag == "textarea":
            if name not in current.visible:
                current.visible.append(name)
            self._control(name, "textarea", a)
            current.values[name] = ""
            self._textarea = name
        elif tag == "select":
            if name not in current.visible:
                current.visible.append(name)
            control = self._control(name, "select", a)
            control.multiple = "multiple" in a
            if control.multiple:
                current.values[name] = []
            self._select, self._select_first = name, None

    def _control(self, name: str, kind: str, a: dict[str, str]) -> Control:
        controls = self.forms[-1].controls
        if name not in controls:
            controls[name] = Control(
                name=name, kind=kind, disabled="disabled" in a, placeholder=a.get("placeholder", "")
            )
        control = controls[name]
        control.required = control.required or "required" in a
        return control

    def _check(self, name: str, kind: str, value: str) -> None:
        values = self.forms[-1].values
        group = self.forms[-1].controls[name]
        if (kind == "checkbox" and len(group.options) > 1) or isinstance(values.get(name), list):
            previous = values.get(name)
            values[name] = [
                *(previous if isinstance(previous, list) else [previous] if previous else []),
                value,
            ]
        else:
            values[name] = value

    def _option(self, a: dict[str, str]) -> None:
        current = self.forms[-1]
        assert self._select is not None
        control = current.controls[self._select]
        value = a.get("value", "")
        control.options.append(value)
        if control.multiple:
            if "selected" in a:
                selected = current.values[self._select]
                assert isinstance(selected, list)
                selected.append(value)
            return
        if self._select_first is None:
            self._select_first = value
            current.values.setdefault(self._select, self._select_first)
        if "selected" in a:
            current.values[self._select] = value

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            value = self.forms[-1].values[self._textarea]
            assert isinstance(value, str)
            # As a browser does: the newline right after <textarea> is not part of the value.
            self.forms[-1].values[self._textarea] = value + (
                data[1:] if not value and data[:1] == "\n" else data
            )

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


def choose(select, containing: str) -> None:
    """In a browser (a Playwright locator of a ``<select>``): select the option whose text contains
    ``containing``, as a person reads the list, once the page shows it. Reading the options does not wait:
    read right after a click, they were the page before's (none), and the journey failed under load."""
    option = select.locator("option", has_text=containing).first
    option.wait_for(state="attached")
    select.select_option(label=option.inner_text().strip())
