"""Settings for Cotas, read from the environment (django-environ).

Development: `make install` writes a `.env` (DEBUG=1 and a generated SECRET_KEY) read here, so bare
`pytest` and `manage.py` work. Production sets at least SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL in the
environment (which wins over any `.env`); see README.md.
"""

import os
import re
from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
# ENV_FILE points elsewhere (or at nothing) when a checkout's development `.env` must not be read.
ENV_FILE = Path(os.environ.get("ENV_FILE", BASE_DIR / ".env"))
if ENV_FILE.is_file():
    environ.Env.read_env(ENV_FILE, overwrite=False)

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    raise ImproperlyConfigured("Defina SECRET_KEY no ambiente (a aplicação não tem chave padrão).")
# Rotating the key (docs/operations.md): the previous keys, comma-separated, still verify the sessions,
# password-reset links and signed values they made; new ones are signed with SECRET_KEY only.
SECRET_KEY_FALLBACKS = env.list("SECRET_KEY_FALLBACKS", default=[])
# The key of the candidates' personal access codes (candidates/access.py): each code is an HMAC of the
# registration and its version under this key, so no code is stored. Changing it invalidates every code,
# so it is its own variable, never derived from SECRET_KEY outside DEBUG: rotating the secret key must not
# change the codes already mailed and printed. DEBUG derives a development value.
ACCESS_CODE_KEY = env.str("ACCESS_CODE_KEY", default="")
if not ACCESS_CODE_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "Defina ACCESS_CODE_KEY no ambiente: a chave dos códigos de acesso dos candidatos (gere como a "
            "SECRET_KEY). Numa instalação que já enviou códigos, use cotas.access-code: seguido da "
            "SECRET_KEY atual, o valor que eles já usam (docs/operations.md, seção 6)."
        )
    ACCESS_CODE_KEY = f"cotas.access-code:{SECRET_KEY}"

# The site's origin as the public reaches it (scheme and host, e.g. https://concursos.prefeitura.gov.br):
# the address under every document's QR code, in every e-mail link and on every printed letter. Nothing
# has a request to take it from, so a wrong default would send every link to the wrong place: outside
# DEBUG it must be set; DEBUG defaults to the development server (`make run`, PORT).
PUBLIC_BASE_URL = env.str("PUBLIC_BASE_URL", default="").rstrip("/")
if not PUBLIC_BASE_URL:
    if not DEBUG:
        raise ImproperlyConfigured(
            "Defina PUBLIC_BASE_URL no ambiente: o endereço público do sistema (ex.: "
            "https://concursos.prefeitura.gov.br), usado nos QR codes dos documentos, nos links dos e-mails "
            "e nas cartas."
        )
    development_port = env.int("PORT", default=8000)
    PUBLIC_BASE_URL = f"http://127.0.0.1:{development_port}"
if not re.fullmatch(r"https?://[^/\s]+", PUBLIC_BASE_URL):
    raise ImproperlyConfigured(
        "PUBLIC_BASE_URL deve ser só a origem do site, com http:// ou https:// e sem caminho "
        f"(ex.: https://concursos.prefeitura.gov.br), não {PUBLIC_BASE_URL!r}."
    )

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "simple_history",
    "csp",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "contests",
    "candidates",
    "declarations",
    # The law's monitoring: indicators over the domain, read by the portal (open data) and the workspace.
    "monitoring",
    # On top of the domain apps (DESIGN.md): the public site and the staff's workspace.
    "portal",
    "workspace",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # NUL bytes out of the query string before anything reads it (PostgreSQL refuses them in a query).
    "workspace.middleware.QueryWithoutNulMiddleware",
    # A body larger than REQUEST_BODY_MAX_MB (the proxy's client_max_body_size) is refused unread (413).
    "workspace.middleware.RequestBodyLimitMiddleware",
    # The public portal's pages already answered, replayed whole to anonymous visitors.
    "portal.middleware.PublicPageMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "workspace.middleware.NoStoreForStaffMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Turns a view's database error into the 503 page (database down), with every header set above.
    "workspace.middleware.DatabaseUnavailableMiddleware",
    # Last, as django-axes asks: turns a lockout flagged during the request into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
# The CSRF failure page, like the other error pages, answers 503 when the database is down.
CSRF_FAILURE_VIEW = "workspace.views.errors.csrf_failure"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "workspace.context_processors.workspace",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Each worker keeps its connection between requests (checked before reuse after an error): opening one costs
# PostgreSQL a new backend process, several milliseconds of the few a public search takes (issue 24).
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=600)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Two clerks writing at once: a deferred transaction that reads then writes fails at once with
    # "database is locked" (SQLite will not wait to upgrade a read lock). Every transaction takes the write
    # lock when it begins and waits up to `timeout` seconds for it; WAL lets readers go on meanwhile.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES = {
    "default": env.cache("CACHE_URL", default="locmemcache://cotas"),
    # The public site's rendered pages (portal/pages.py): per process by default; a shared cache
    # (redis://…, dbcache://table) makes a publication visible to every process at once.
    "public": env.cache("PUBLIC_CACHE_URL", default="locmemcache://public"),
    # A published run's lists per position, read by every nomination call: immutable, so a cache per
    # process is enough, and separate so rosters never push other entries out of "default".
    "rosters": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "rosters",
        "TIMEOUT": None,
        "OPTIONS": {"MAX_ENTRIES": 64},
    },
}

# A redis:// URL: Django's Redis cache, keeping one client per connection pool (config/redis_cache.py).
for _cache in CACHES.values():
    if _cache["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
        _cache["BACKEND"] = "config.redis_cache.RedisCache"

# How many worker processes serve the application: gunicorn reads the same variable for its number of
# workers. With more than one, `check --deploy` warns when "default" or "public" is a cache of each process
# (workspace/checks.py): each worker would keep its own pages and counters.
WEB_CONCURRENCY = env.int("WEB_CONCURRENCY", default=1)

if CACHES["public"]["BACKEND"].endswith("LocMemCache"):
    CACHES["public"].setdefault("OPTIONS", {}).setdefault("MAX_ENTRIES", 2000)
    # The public's searches (portal/pages.py): a store of their own, so that a flood of searches never
    # pushes a page out of "public".
    CACHES["public_searches"] = {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "public-searches",
        "OPTIONS": {"MAX_ENTRIES": 1000},
    }
else:  # the same shared cache, under a prefix of their own
    CACHES["public_searches"] = {
        **CACHES["public"],
        "KEY_PREFIX": f"{CACHES['public'].get('KEY_PREFIX', '')}searches",
    }
# At most this many searches are stored per page and per publication (generation), and this many in all:
# every other search is answered (from the database) but not stored, so nobody can grow the store.
PUBLIC_SEARCHES_PER_PAGE = env.int("PUBLIC_SEARCHES_PER_PAGE", default=100)
PUBLIC_SEARCHES_MAX = env.int("PUBLIC_SEARCHES_MAX", default=2000)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out user name at that address before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Login throttling (django-axes, workspace/login_throttle.py; the attempts live in the database, so every
# worker process counts the same): after AXES_FAILURE_LIMIT wrong passwords for one user name from one
# address, that pair is refused for the cool-off; after LOGIN_MAX_FAILURES_PER_ADDRESS from one address,
# whatever the names, the address is; after LOGIN_ACCOUNT_DELAY_AFTER for one account from every address,
# each further try on it waits a delay that doubles (LOGIN_ACCOUNT_DELAY_SECONDS first, at most the
# cool-off): the owner waits, nobody is locked out for good. The address is REMOTE_ADDR: behind a proxy,
# the proxy must set it.
AXES_HANDLER = "workspace.login_throttle.LoginThrottleHandler"
# In this order: the pair, the address, the account (LoginThrottleHandler reads them so).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address", "username"]
AXES_FAILURE_LIMIT = env.int("LOGIN_MAX_FAILURES", default=5)
LOGIN_MAX_FAILURES_PER_ADDRESS = env.int("LOGIN_MAX_FAILURES_PER_ADDRESS", default=20)
LOGIN_ACCOUNT_DELAY_AFTER = env.int("LOGIN_ACCOUNT_DELAY_AFTER", default=10)
LOGIN_ACCOUNT_DELAY_SECONDS = env.int("LOGIN_ACCOUNT_DELAY_SECONDS", default=30)
AXES_COOLOFF_TIME = timedelta(seconds=env.int("LOGIN_LOCKOUT_SECONDS", default=15 * 60))
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "workspace.login.lockout_response"
AXES_IPWARE_META_PRECEDENCE_ORDER = ("REMOTE_ADDR",)
# Masked in the stored attempt (axes masks "password" itself): the password change form's fields too.
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "old_password", "new_password1", "new_password2"]

LANGUAGE_CODE = "pt-br"
TIME_ZONE = "America/Sao_Paulo"
USE_I18N = True
USE_TZ = True
USE_THOUSAND_SEPARATOR = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "media")
# Files uploaded to the import wizard (personal data) between its steps: private, never under MEDIA_ROOT,
# readable by the application's user only, deleted after the commit or the cancellation.
IMPORT_UPLOAD_ROOT = env.path("IMPORT_UPLOAD_ROOT", default=BASE_DIR / "private" / "imports")
# The files of false-declaration procedures (defences, evidence, powers of attorney): private like the
# imports, served only through the procedure's permission-checked view (every download logged).
PROCEDURE_FILES_ROOT = env.path("PROCEDURE_FILES_ROOT", default=BASE_DIR / "private" / "procedures")
PROCEDURE_ATTACHMENT_MAX_BYTES = env.int("PROCEDURE_ATTACHMENT_MAX_BYTES", default=10 * 1024 * 1024)
# How long a private link to a procedure stays valid (days); a new one can be issued, an old one revoked.
PROCEDURE_LINK_DAYS = env.int("PROCEDURE_LINK_DAYS", default=180)
# The public portal's static snapshot (portal/snapshots.py): the published pages as files, which nginx or a
# CDN sends without the application (docs/operations.md). Public pages only; a local folder by default
# (`make run` serves everything through Django and ignores it). PORTAL_SNAPSHOTS=0 stops writing it.
SNAPSHOT_ROOT = env.path("SNAPSHOT_ROOT", default=BASE_DIR / "private" / "snapshots")
PORTAL_SNAPSHOTS = env.bool("PORTAL_SNAPSHOTS", default=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "snapshots": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {
            "location": SNAPSHOT_ROOT,
            "base_url": None,
            "file_permissions_mode": 0o644,
            "directory_permissions_mode": 0o755,
        },
    },
    "procedures": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {
            "location": PROCEDURE_FILES_ROOT,
            "base_url": None,
            "file_permissions_mode": 0o600,
            "directory_permissions_mode": 0o700,
        },
    },
    "imports": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {
            "location": IMPORT_UPLOAD_ROOT,
            "base_url": None,
            "file_permissions_mode": 0o600,
            "directory_permissions_mode": 0o700,
        },
    },
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# Published documents (contests/documents): the organisation's certificate (a PKCS#12 file and its
# password) that signs every published PDF (PAdES); their QR codes point at PUBLIC_BASE_URL (above).
# Without a certificate, documents are published unsigned and say so.
# Since issue 20 Gestão uploads the body's certificate on a screen (``SigningCertificate``, stored encrypted);
# this file is the fallback of installations configured before it, and of the tests.
DOCUMENTS_PKCS12_PATH = env.str("DOCUMENTS_PKCS12_PATH", default="")
DOCUMENTS_PKCS12_PASSWORD = env.str("DOCUMENTS_PKCS12_PASSWORD", default="")
# The key that encrypts the uploaded certificate and its password at rest (Fernet; any long random string,
# hashed into the key). Unset, it is derived from SECRET_KEY, and SECRET_KEY_FALLBACKS still decrypt: a
# rotated SECRET_KEY keeps the stored certificate readable while the old key is a fallback, and once it is
# dropped the certificate must be uploaded again. Set it on its own (and list the previous values in
# SIGNING_KEY_ENCRYPTION_KEY_FALLBACKS when it changes) so that rotating the secret key never touches it.
SIGNING_KEY_ENCRYPTION_KEY = env.str("SIGNING_KEY_ENCRYPTION_KEY", default="")
SIGNING_KEY_ENCRYPTION_KEY_FALLBACKS = env.list("SIGNING_KEY_ENCRYPTION_KEY_FALLBACKS", default=[])
if not SIGNING_KEY_ENCRYPTION_KEY:
    SIGNING_KEY_ENCRYPTION_KEY = f"cotas.signing-key:{SECRET_KEY}"
    SIGNING_KEY_ENCRYPTION_KEY_FALLBACKS = [f"cotas.signing-key:{key}" for key in SECRET_KEY_FALLBACKS]
# Who signs (docs/signing.md): "pkcs12" (the uploaded A1 certificate, else the file above), "pkcs11" (an A3
# token or HSM through its PKCS#11 module) or the dotted path of a backend class (a remote signing service).
SIGNATURE_BACKEND = env.str("SIGNATURE_BACKEND", default="pkcs12")
SIGNATURE_PKCS11_MODULE = env.str("SIGNATURE_PKCS11_MODULE", default="")
SIGNATURE_PKCS11_TOKEN_LABEL = env.str("SIGNATURE_PKCS11_TOKEN_LABEL", default="")
SIGNATURE_PKCS11_PIN = env.str("SIGNATURE_PKCS11_PIN", default="")
SIGNATURE_PKCS11_CERT_LABEL = env.str("SIGNATURE_PKCS11_CERT_LABEL", default="")
SIGNATURE_PKCS11_KEY_LABEL = env.str("SIGNATURE_PKCS11_KEY_LABEL", default="")
# The signature policy every signature declares (signature-policy-identifier, CAdES/PAdES). Default: the
# ICP-Brasil policy PA_PAdES_AD_RB v1.1, "Política de Assinatura Digital com Referência Básica no formato
# PAdES", OID 2.16.76.1.7.1.11.1.1 (DOC-ICP-15.03, annex of the PAdES policies; the list ITI publishes at
# http://politicas.icpbrasil.gov.br/LPA_PAdES.der). The hash a validator checks is the SignPolicyHash inside
# the policy document: SIGNATURE_POLICY_FILE (the .der downloaded from the URI, which the installation should
# set) reads it from the file and wins over SIGNATURE_POLICY_HASH (hex). The default hash is the v1.1 digest
# as published in ITI's list (LPA), not checked against the policy file here (no network): docs/signing.md.
# An empty OID signs without a policy.
SIGNATURE_POLICY_OID = env.str("SIGNATURE_POLICY_OID", default="2.16.76.1.7.1.11.1.1")
SIGNATURE_POLICY_URI = env.str(
    "SIGNATURE_POLICY_URI", default="http://politicas.icpbrasil.gov.br/PA_PAdES_AD_RB_v1_1.der"
)
SIGNATURE_POLICY_FILE = env.str("SIGNATURE_POLICY_FILE", default="")
SIGNATURE_POLICY_HASH = env.str(
    "SIGNATURE_POLICY_HASH", default="95752d26ca974d46675ae7fb787b606a71ea941f26b59f6b6a321f97d63b9cb1"
)
SIGNATURE_POLICY_HASH_ALGORITHM = env.str("SIGNATURE_POLICY_HASH_ALGORITHM", default="sha256")
# A time-stamping authority (RFC 3161), e.g. an ACT of ICP-Brasil: each signature gets its timestamp. Unset,
# documents are signed offline without one; an unreachable TSA signs without it and logs a warning.
SIGNATURE_TSA_URL = env.str("SIGNATURE_TSA_URL", default="")
SIGNATURE_TSA_TIMEOUT = env.int("SIGNATURE_TSA_TIMEOUT", default=10)
# The roots /verificar/ trusts: a folder of root certificates (PEM or DER; the ICP-Brasil roots the
# municipality installs), read once. Unset, it trusts the organisation's own certificate only (the
# behaviour before issue 20). Nothing is fetched while a file is verified.
SIGNATURE_TRUST_STORE = env.str("SIGNATURE_TRUST_STORE", default="")
# A list PDF of more rows than this is rendered by the task queue, never in the web request (the page
# that asked for it follows the job); a shorter one, in the request. With WeasyPrint alone 100 rows took
# 0.8 s, 500 rows 2.7 s and 1,000 rows 5.4 s on the shared 2-core development machine; since the middle
# pages are written by contests/documents/fastlist.py, 500 rows take 0.3 s of CPU and 1,000 rows 0.5 s
# (10,000 rows 0.7 s), so this bound could rise; it has not been re-decided.
DOCUMENTS_TASK_ROWS = env.int("DOCUMENTS_TASK_ROWS", default=500)
# An act whose free text (a session's explanations and opinions) passes this many characters is rendered by
# the task queue too (issue 25 N13: 2 MB of text took a minute of a worker).
DOCUMENTS_TASK_CHARS = env.int("DOCUMENTS_TASK_CHARS", default=50_000)
# The most vacancies one position can have, the edital's and the later openings summed: far above any
# municipality's (a position with 1,000,000 vacancies made its nominations page 290 MB).
MAX_VACANCIES_PER_POSITION = env.int("MAX_VACANCIES_PER_POSITION", default=5000)

# The longest free text a form takes per field (facts, reasons, texts of acts): shown in its help text.
TEXT_MAX_CHARS = env.int("TEXT_MAX_CHARS", default=10_000)
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# No form takes more files than this in one request (the appeal's own bound, 5, is enforced while reading:
# declarations.hetero.appeal_files.AppealUploadLimit); past it Django refuses the request (400).
DATA_UPLOAD_MAX_NUMBER_FILES = 20
# The largest request body the application accepts, in MB (413 above it, before anything is read): the
# largest upload (a 50 MB PDF at /verificar/ or a document's file) plus the form around it. The proxy's
# limit is this same number (docs/operations.md: `client_max_body_size 52m`; a test holds them equal).
REQUEST_BODY_MAX_MB = env.int("REQUEST_BODY_MAX_MB", default=52)
# What one private link may file (issue 25 N8): per filing, and per day (America/Sao_Paulo) summed over its
# filings; each file is also bounded by PROCEDURE_ATTACHMENT_MAX_BYTES.
LINK_FILING_MAX_FILES = env.int("LINK_FILING_MAX_FILES", default=10)
LINK_FILING_MAX_MB = env.int("LINK_FILING_MAX_MB", default=30)
LINK_DAILY_MAX_FILES = env.int("LINK_DAILY_MAX_FILES", default=30)
LINK_DAILY_MAX_MB = env.int("LINK_DAILY_MAX_MB", default=100)

# Security. Production (DEBUG off) gets secure cookies and HSTS unless the environment says otherwise.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# The health check of a load balancer or monitor that speaks plain HTTP to the application server.
SECURE_REDIRECT_EXEMPT = [r"^saude/$"]
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_AGE = env.int("SESSION_COOKIE_AGE", default=8 * 60 * 60)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    },
}

SIMPLE_HISTORY_HISTORY_CHANGE_REASON_USE_TEXT_FIELD = True

# Background work (django-tasks): notices by e-mail, long lists' PDFs and large imports (contests.jobs).
# The queue is a table of the same database (django-tasks-db: django-tasks 0.12 moved its database backend
# there); its worker (`manage.py db_worker`) runs beside the server (`make run` starts one).
# TASKS_BACKEND (a dotted path) overrides, e.g. django_tasks.backends.immediate.ImmediateBackend to run
# tasks inline.
TASKS = {"default": {"BACKEND": env.str("TASKS_BACKEND", default="django_tasks_db.DatabaseBackend")}}
# /saude/ answers 503 when the task waiting longest has waited this long (a stopped worker leaves notices
# unsent: issue 25 N7).
TASK_QUEUE_MAX_WAIT_MINUTES = env.int("TASK_QUEUE_MAX_WAIT_MINUTES", default=5)
# How many times a notice's e-mail is tried before it is left failed (shown on the case page).
NOTICE_EMAIL_ATTEMPTS = env.int("NOTICE_EMAIL_ATTEMPTS", default=5)
# An import of more rows than this is committed by the task queue, its progress on the job's page (17,600
# rows took 9 to 34 s to commit on the shared development machine: 2,000, about 1 to 4 s in a request).
IMPORT_TASK_ROWS = env.int("IMPORT_TASK_ROWS", default=2000)
# How long a file a job generated (a draft list's PDF: personal data) is kept for its download.
JOB_OUTPUT_HOURS = env.int("JOB_OUTPUT_HOURS", default=24)

# E-mail: SMTP from the environment in production (EMAIL_URL, e.g. smtp+tls://user:pass@host:587);
# in development, each message is a file in MAIL_DIR (a local mailbox to read what was sent). The links
# in them start with PUBLIC_BASE_URL (above).
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="nao-responda@localhost")
if "EMAIL_URL" in os.environ:
    vars().update(env.email_url("EMAIL_URL"))
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = env.path("MAIL_DIR", default=BASE_DIR / "private" / "mail")

# One line per record on standard error (gunicorn and systemd/journald collect it): time, level, logger,
# message. Personal data stays out of log messages (LGPD): the access log is the database's AccessLog.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s", "datefmt": "%Y-%m-%dT%H:%M:%S%z"}
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
