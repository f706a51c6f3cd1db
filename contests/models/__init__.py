"""The law and the contest: Policy, Organization, Holiday, Contest, Position, VacancyOpening, AccessLog,
Publication, SigningCertificate; the edital's text and the published documents (``contests.documents.models``); Job, the
background work any app asks for (``contests.jobs``)."""

from contests.calendar import add_days  # the one day arithmetic, kept importable from here
from contests.documents.models import Document, EditalText
from contests.models.access import AccessLog
from contests.models.contest import Contest, Position, VacancyOpening, vacancies_bound_refusal
from contests.models.jobs import Job
from contests.models.organization import Authority, Holiday, Organization, Signatory
from contests.models.policy import PERCENT_VALIDATORS, POLICY_LOCKED, Policy
from contests.models.publication import Publication, PublicGeneration
from contests.models.signing import SigningCertificate

__all__ = [
    "PERCENT_VALIDATORS",
    "POLICY_LOCKED",
    "AccessLog",
    "Authority",
    "Contest",
    "Document",
    "EditalText",
    "Holiday",
    "Job",
    "Organization",
    "Policy",
    "Position",
    "PublicGeneration",
    "Publication",
    "Signatory",
    "SigningCertificate",
    "VacancyOpening",
    "add_days",
    "vacancies_bound_refusal",
]
