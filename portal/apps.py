from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "portal"
    verbose_name = "Portal público"

    def ready(self) -> None:
        from contests.publication import public_changed
        from portal.snapshots import on_publication

        # After each publication commits, the static snapshot of the pages it changes (portal/snapshots.py).
        public_changed.connect(on_publication, dispatch_uid="portal-snapshots")
