//! A request field whose value is one of a closed set ([`closed_set!`](crate::closed_set)): with the
//! `openapi` feature it is documented as that set's enum, so the OpenAPI document lists the values and
//! the web client gets a TypeScript union, but it is parsed leniently. poem-openapi's own enum parsing
//! would answer a value outside the set in its own words; the spec gives each field its own message
//! ("Please choose a service type"), so a `Choice` keeps what was sent and the validation that reads
//! it, in the field's turn among the others, asks for the value with that field's message.

use std::str::FromStr;

use crate::Error;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice<T> {
    sent: String,
    value: Option<T>,
}

impl<T: Copy> Choice<T> {
    /// The value, or the field's validation error when what was sent is not one of the set.
    pub fn value(&self, invalid: &str) -> crate::Result<T> {
        self.value.ok_or_else(|| Error::validation(invalid))
    }

    /// What was sent, without the spaces around it.
    pub fn sent(&self) -> &str {
        self.sent.trim()
    }

    /// Nothing but spaces was sent (some optional fields read that as absent).
    pub fn is_blank(&self) -> bool {
        self.sent.trim().is_empty()
    }

    /// A required field: absent, or a value outside the set, is the field's error.
    pub fn required(field: Option<&Self>, invalid: &str) -> crate::Result<T> {
        field.ok_or_else(|| Error::validation(invalid))?.value(invalid)
    }
}

impl<T: FromStr> Choice<T> {
    /// The value whatever the case of the letters sent ("PayPal" is paypal), or the field's error.
    pub fn value_ignoring_case(&self, invalid: &str) -> crate::Result<T> {
        self.sent
            .trim()
            .to_ascii_lowercase()
            .parse()
            .map_err(|_| Error::validation(invalid))
    }

    fn parse(sent: String) -> Self {
        // Surrounding spaces never made a value invalid before these fields were typed.
        let value = sent.trim().parse().ok();
        Self { sent, value }
    }
}

impl<T: FromStr> FromStr for Choice<T> {
    type Err = std::convert::Infallible;
    fn from_str(sent: &str) -> Result<Self, Self::Err> {
        Ok(Self::parse(sent.to_string()))
    }
}

#[cfg(feature = "openapi")]
mod openapi {
    use std::{borrow::Cow, str::FromStr};

    use poem_openapi::{
        registry::{MetaSchemaRef, Registry},
        types::{ParseError, ParseFromJSON, ParseFromParameter, ParseResult, ToJSON, Type},
    };
    use serde_json::Value;

    use super::Choice;

    impl<T: Type + Send + Sync> Type for Choice<T> {
        const IS_REQUIRED: bool = true;
        type RawValueType = Self;
        type RawElementValueType = Self;

        fn name() -> Cow<'static, str> {
            T::name()
        }

        fn schema_ref() -> MetaSchemaRef {
            T::schema_ref()
        }

        fn register(registry: &mut Registry) {
            T::register(registry);
        }

        fn as_raw_value(&self) -> Option<&Self::RawValueType> {
            Some(self)
        }

        fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
            Box::new(self.as_raw_value().into_iter())
        }
    }

    impl<T: Type + FromStr + Send + Sync> ParseFromJSON for Choice<T> {
        fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
            match value {
                Some(Value::String(s)) => Ok(Self::parse(s)),
                // A number or an object is not one of the set either: the field's own message says so.
                Some(Value::Null) | None => Err(ParseError::expected_input()),
                Some(other) => Ok(Self {
                    sent: other.to_string(),
                    value: None,
                }),
            }
        }
    }

    impl<T: Type + FromStr + Send + Sync> ParseFromParameter for Choice<T> {
        fn parse_from_parameter(value: &str) -> ParseResult<Self> {
            Ok(Self::parse(value.to_string()))
        }
    }

    impl<T: Type + Send + Sync> ToJSON for Choice<T> {
        fn to_json(&self) -> Option<Value> {
            Some(Value::String(self.sent.clone()))
        }
    }
}

#[cfg(all(test, feature = "openapi"))]
// The test's closed set is private; the macro's `pub` methods are for sets in the open.
#[allow(unreachable_pub)]
mod tests {
    use poem_openapi::types::{ParseFromJSON, ParseFromParameter};
    use serde_json::json;

    use super::Choice;

    closed_set! {
        /// A closed set of this module's own (a module's tests import no other area of the domain).
        enum ServiceType ("service type") {
            Tarot = "tarot",
            Astrology = "astrology",
        }
    }

    const INVALID: &str = "Please choose a service type";

    fn from_json(v: serde_json::Value) -> Choice<ServiceType> {
        Choice::parse_from_json(Some(v)).unwrap()
    }

    #[test]
    fn a_set_as_sql_literals_is_its_stored_texts() {
        assert_eq!(ServiceType::sql_list(ServiceType::ALL), "'tarot', 'astrology'");
    }

    #[test]
    fn a_value_of_the_set_is_that_value_even_with_spaces_around() {
        assert_eq!(from_json(json!("tarot")).value(INVALID).unwrap(), ServiceType::Tarot);
        assert_eq!(from_json(json!(" tarot ")).value(INVALID).unwrap(), ServiceType::Tarot);
        let param: Choice<ServiceType> = Choice::parse_from_parameter("astrology").unwrap();
        assert_eq!(param.value(INVALID).unwrap(), ServiceType::Astrology);
    }

    #[test]
    fn anything_else_is_the_fields_own_message() {
        for v in [
            json!("palmistry"),
            json!(""),
            json!("TAROT"),
            json!(5),
            json!(["tarot"]),
            json!({}),
        ] {
            let err = from_json(v.clone()).value(INVALID).unwrap_err();
            assert_eq!(err.to_string(), INVALID, "{v}");
        }
    }

    #[test]
    fn absent_or_null_is_none() {
        let absent: Option<Choice<ServiceType>> = ParseFromJSON::parse_from_json(None).unwrap();
        assert_eq!(absent, None);
        assert_eq!(
            Choice::required(absent.as_ref(), INVALID).unwrap_err().to_string(),
            INVALID
        );
        let null: Option<Choice<ServiceType>> = ParseFromJSON::parse_from_json(Some(json!(null))).unwrap();
        assert_eq!(null, None);
    }
}
