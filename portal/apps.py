from django.apps import AppConfig


def on_publication(sender: object, **kwargs: object) -> None:
    """``portal.snapshots.on_publication``, imported when a publication first calls it: the snapshots bring in
    the lists' documents and the PDF pipeline, half a second of start-up for every ``manage.py`` command."""
    from portal.snapshots import on_publication

    on_publication(sender, **kwargs)  # type: ignore[arg-type]  # the signal's own keyword arguments


class PortalConfig(AppConfig):
    name = "portal"
    verbose_name = "Portal público"

    def ready(self) -> None:
        from contests.publication import public_changed

        # After each publication commits, the static snapshot of the pages it changes (portal/snapshots.py).
        public_changed.connect(on_publication, dispatch_uid="portal-snapshots")
