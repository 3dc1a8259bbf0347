//! A money amount in a request: a decimal string ("50.00") or a JSON number (50.5).
//! Kept as text here; `domain::money` parses it with the field's own error message.

use std::borrow::Cow;

use poem_openapi::{
    registry::{MetaSchema, MetaSchemaRef},
    types::{ParseError, ParseFromJSON, ParseResult, ToJSON, Type},
};
use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Amount(pub String);

impl Type for Amount {
    const IS_REQUIRED: bool = true;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        "string_decimal".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        let mut schema = MetaSchema::new_with_format("string", "decimal");
        schema.description = Some("A non-negative amount in USD with at most two decimals, e.g. \"50.00\"");
        MetaSchemaRef::Inline(Box::new(schema))
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        Some(self)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        Box::new(self.as_raw_value().into_iter())
    }
}

impl ParseFromJSON for Amount {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value.unwrap_or_default() {
            Value::String(s) => Ok(Amount(s)),
            Value::Number(n) => Ok(Amount(n.to_string())),
            other => Err(ParseError::expected_type(other)),
        }
    }
}

impl ToJSON for Amount {
    fn to_json(&self) -> Option<Value> {
        Some(Value::String(self.0.clone()))
    }
}

impl Amount {
    pub(super) fn text(value: &Option<Amount>) -> Option<String> {
        value.as_ref().map(|a| a.0.clone())
    }
}
