//! Closed sets of values (statuses, kinds, methods) as Rust enums.
//!
//! [`closed_set!`] declares an enum whose every variant names its stored text once. The enum is
//! stored as `text` through `#[derive(sqlx::Type)]` (the columns keep their CHECK constraints),
//! serialises to the same text, and with the `openapi` feature (the api's) derives poem-openapi's
//! `Enum`, so the OpenAPI document lists the values and the web client gets a TypeScript union.
//! SQL binds these values instead of repeating literals.

/// `closed_set! { /// doc  pub enum Name { Variant = "text", ... } }`: the enum, `ALL`,
/// `as_str`, `Display` and `FromStr` (whose error names the set and the value).
macro_rules! closed_set {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident ($what:literal) {
            $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)?
        }
    ) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ::serde::Serialize, ::serde::Deserialize, ::sqlx::Type)]
        #[sqlx(type_name = "text")]
        #[cfg_attr(feature = "openapi", derive(::poem_openapi::Enum))]
        $(#[$meta])*
        $vis enum $name {
            $(
                $(#[$vmeta])*
                #[sqlx(rename = $text)]
                #[serde(rename = $text)]
                #[cfg_attr(feature = "openapi", oai(rename = $text))]
                $variant
            ),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$(Self::$variant),+];

            /// `'a', 'b'`: these values as SQL literals, for a statement put together in code (the
            /// values come from the enum, never from input); a statement with fixed parameters binds
            /// them instead.
            pub fn sql_list(values: &[$name]) -> String {
                values.iter().map(|v| format!("'{}'", v.as_str())).collect::<Vec<_>>().join(", ")
            }

            /// The stored (and wire) text.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $text),+
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> ::std::result::Result<Self, String> {
                match s {
                    $($text => Ok(Self::$variant),)+
                    _ => Err(format!(concat!("not a ", $what, ": {}"), s)),
                }
            }
        }
    };
}
