"""Shop tools written with pydantic: each faulty contract beside a clean twin.

Load with ``schemalint check shop_tools: --python-path examples/pydantic`` (the folder is
not a package on purpose: a package named ``pydantic`` on ``sys.path`` would shadow the
real one). Each ``...Clean`` model is the fixed version of the model above it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, model_validator, validate_call
from pydantic.json_schema import SkipJsonSchema

# 1. A field hidden from the schema that the validator still requires ------------------


class CreateCoupon(BaseModel):
    """Create a discount coupon."""

    code: str
    percent_off: int = Field(ge=1, le=90)
    channel: SkipJsonSchema[str]  # hidden from the model, still required: every call is refused


class CreateCouponClean(BaseModel):
    """Create a discount coupon."""

    code: str
    percent_off: int = Field(ge=1, le=90)
    channel: SkipJsonSchema[str] = "assistant"  # hidden, but the runtime fills it in


# 2. json_schema_extra that edits `required` / deletes a property ------------------------


def _drop_category_from_required(schema: dict[str, Any]) -> None:
    schema["required"] = [k for k in schema.get("required", []) if k != "category"]


class SearchProducts(BaseModel):
    """Search the catalogue."""

    model_config = ConfigDict(json_schema_extra=_drop_category_from_required)

    query: str
    category: str  # advertised optional, required at run time
    limit: int = 20


class SearchProductsClean(BaseModel):
    """Search the catalogue."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"query": "lamp", "category": "home"}]})

    query: str
    category: str
    limit: int = 20


def _hide_carrier(schema: dict[str, Any]) -> None:
    schema["properties"].pop("carrier", None)
    schema["required"] = [k for k in schema.get("required", []) if k != "carrier"]


class TrackParcel(BaseModel):
    """Track a parcel."""

    model_config = ConfigDict(json_schema_extra=_hide_carrier)

    tracking_number: str
    carrier: Literal["ups", "dhl", "postnl"]  # deleted from the schema, still required


class TrackParcelClean(BaseModel):
    """Track a parcel."""

    tracking_number: str
    carrier: Literal["ups", "dhl", "postnl"] = "postnl"


# 3. WithJsonSchema override that says something else than the validator -----------------


class SetStock(BaseModel):
    """Set the stock level of a product."""

    sku: str
    quantity: Annotated[int, WithJsonSchema({"type": "string", "description": "How many are in stock."})]


class SetStockClean(BaseModel):
    """Set the stock level of a product."""

    sku: str
    quantity: Annotated[int, Field(ge=0), WithJsonSchema({"type": "integer", "minimum": 0,
                                                          "description": "How many are in stock."})]


# 4. A before-validator that demands a key the schema never mentions ---------------------


class RefundOrder(BaseModel):
    """Refund an order."""

    order_id: str
    amount: float

    @model_validator(mode="before")
    @classmethod
    def _needs_reason(cls, data: Any) -> Any:
        if isinstance(data, dict) and "reason_code" not in data:
            raise ValueError("reason_code is required for refunds")
        return data


class RefundOrderClean(BaseModel):
    """Refund an order."""

    order_id: str
    amount: float

    @model_validator(mode="before")
    @classmethod
    def _strip_order_id(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("order_id"), str):
            return {**data, "order_id": data["order_id"].strip()}
        return data


# 5. The same kind of fault one level down -------------------------------------------------


def _postcode_optional(schema: dict[str, Any]) -> None:
    schema["required"] = [k for k in schema.get("required", []) if k != "postcode"]


class Address(BaseModel):
    model_config = ConfigDict(json_schema_extra=_postcode_optional)

    street: str
    city: str
    postcode: str  # advertised optional inside `address`, required at run time


class ShipOrder(BaseModel):
    """Ship an order to an address."""

    order_id: str
    address: Address
    gift_note: str | None = None


class AddressClean(BaseModel):
    street: str
    city: str
    postcode: str = ""


class ShipOrderClean(BaseModel):
    """Ship an order to an address."""

    order_id: str
    address: AddressClean
    gift_note: str | None = None


# 6. Aliases used consistently (clean) and functions ---------------------------------------


class GetOrder(BaseModel):
    """Fetch one order."""

    model_config = ConfigDict(populate_by_name=True)

    order_id: str = Field(alias="orderId")
    include_lines: bool = Field(default=False, alias="includeLines")


@validate_call
def cancel_order(
    order_id: str,
    reason: Annotated[str, Field(min_length=10), WithJsonSchema({"type": "string"})],  # limit never shown
) -> str:
    """Cancel an order."""
    raise RuntimeError("a probe must never run the tool body")


@validate_call
def cancel_order_clean(order_id: str, reason: Annotated[str, Field(min_length=10)]) -> str:
    """Cancel an order."""
    raise RuntimeError("a probe must never run the tool body")


@validate_call
def list_orders(status: Literal["open", "shipped", "cancelled"] = "open", limit: int = 10) -> list[str]:
    """List orders by status."""
    raise RuntimeError("a probe must never run the tool body")
