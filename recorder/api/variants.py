"""GET /api/variants: names, titles, board geometry and options of the five games."""

from flask import Blueprint

from recorder.rules import VARIANTS
from schemas import variant_list_schema

bp = Blueprint("variants", __name__, url_prefix="/api/variants")


@bp.get("")
def list_variants():
    described = [rules_class().describe() for rules_class in VARIANTS.values()]
    return variant_list_schema.dump({"variants": described})
