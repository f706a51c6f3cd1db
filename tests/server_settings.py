"""The settings of a real server a test starts (gunicorn in tests/test_two_workers.py): the application's
own, read from the environment the test gives, with the tests' password hasher first (tests/passwords.py).
A login with an unknown name still hashes the typed password once (Django's guard against telling names
apart by time): under PBKDF2's million rounds the twenty names of the login throttle's test cost some 20 s
of CPU."""

from django.conf import global_settings

from config.settings import *  # noqa: F403
from tests.passwords import FAST_HASHERS

PASSWORD_HASHERS = [*FAST_HASHERS, *global_settings.PASSWORD_HASHERS]
