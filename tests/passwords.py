"""The tests' password hasher: MD5, for the test process (tests/conftest.py) and the servers a test starts
(tests/server_settings.py). Django's PBKDF2 costs some 0.4 s of CPU for each password it hashes."""

FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
