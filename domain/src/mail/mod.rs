//! Outgoing e-mail through lettre: `.eml` files on a developer machine, SMTP in production.

pub mod calendar;
pub mod sends;
pub mod templates;

pub use crate::PRODUCT_NAME;

use anyhow::Context;
use lettre::{
    AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{
        Body, Mailbox, MultiPart, SinglePart,
        header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue},
    },
};

use crate::config::{Config, MailTransport};

/// A rendered message: always a plain-text and an HTML part.
#[derive(Clone, Debug)]
pub struct Email {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// Where replies go, when not to the sender.
    pub reply_to: Option<String>,
    /// An `.ics` invitation for calendar apps.
    pub calendar: Option<calendar::Invite>,
    /// The one-click unsubscribe address (RFC 8058) of a mail that an e-mail preference governs.
    pub unsubscribe: Option<String>,
    /// Files attached (a receipt's PDF).
    pub attachments: Vec<Attachment>,
}

/// How long the SMTP server has to answer each step of a send before it counts as failed.
pub const SEND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

/// Where a reader changes their e-mail preferences (the dashboard opens on that tab).
pub const PREFERENCES_PATH: &str = "/dashboard";
pub const PREFERENCES_TAB: (&str, &str) = ("tab", "email-preferences");
/// The footer's link words, in the text and the HTML part.
pub const UNSUBSCRIBE_LINK_TEXT: &str = "Unsubscribe";
pub const PREFERENCES_LINK_TEXT: &str = "Email preferences";

impl Email {
    /// The mail as one that the preference `label` governs: the one-click address in the
    /// `List-Unsubscribe` header and, for the reader, a footer in both parts saying why they get it
    /// with a visible unsubscribe link and one to their e-mail preferences.
    pub fn governed_by(self, label: &str, unsubscribe: &str, preferences: &str) -> Email {
        let why =
            format!("You receive this e-mail because \"{label}\" is on in your {PRODUCT_NAME} e-mail preferences.");
        let text = format!(
            "{}\n--\n{why}\n{UNSUBSCRIBE_LINK_TEXT}: {unsubscribe}\n{PREFERENCES_LINK_TEXT}: {preferences}\n",
            self.text.trim_end()
        );
        let esc = templates::escape;
        let footer = format!(
            "<hr style=\"border:none;border-top:1px solid #ddd;margin:24px 0 12px\">\n\
             <p style=\"font-size:12px;color:#666\">{}<br>\n\
             <a href=\"{}\" style=\"color:#5b3fd1\">{UNSUBSCRIBE_LINK_TEXT}</a> &middot; \
             <a href=\"{}\" style=\"color:#5b3fd1\">{PREFERENCES_LINK_TEXT}</a></p>\n",
            esc(&why),
            esc(unsubscribe),
            esc(preferences)
        );
        let html = match self.html.rfind("</body>") {
            Some(at) => format!("{}{footer}{}", &self.html[..at], &self.html[at..]),
            None => format!("{}{footer}", self.html),
        };
        Email {
            text,
            html,
            unsubscribe: Some(unsubscribe.to_string()),
            ..self
        }
    }
}

/// A file attached to a mail.
#[derive(Clone, Debug)]
pub struct Attachment {
    pub filename: String,
    pub content_type: String,
    pub content: Vec<u8>,
}

#[derive(Clone)]
pub struct Mailer {
    from: Mailbox,
    transport: Transport,
}

#[derive(Clone)]
enum Transport {
    File(AsyncFileTransport<Tokio1Executor>),
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
}

impl Mailer {
    pub fn from_config(config: &Config) -> anyhow::Result<Self> {
        let from: Mailbox = config.mail_from.parse().context("MAIL_FROM is not a valid mailbox")?;
        let transport = match config.mail_transport {
            MailTransport::File => {
                std::fs::create_dir_all(&config.mail_dir)
                    .with_context(|| format!("cannot create MAIL_DIR {}", config.mail_dir.display()))?;
                Transport::File(AsyncFileTransport::new(&config.mail_dir))
            }
            MailTransport::Smtp => {
                let url = config.smtp_url.as_deref().context("SMTP_URL is required")?;
                Transport::Smtp(
                    AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                        .context("SMTP_URL is not a valid smtp:// or smtps:// URL")?
                        .timeout(Some(SEND_TIMEOUT))
                        .build(),
                )
            }
        };
        Ok(Self { from, transport })
    }

    /// Sends `email` with a new, random `Message-ID`.
    pub async fn send(&self, email: &Email) -> anyhow::Result<()> {
        self.send_as(email, &uuid::Uuid::new_v4().simple().to_string()).await
    }

    /// Sends `email` with the `Message-ID` `<{local}@{the sender's domain}>`: a mail sent again after
    /// all (`sends`) keeps its id, so receivers can drop the duplicate. `local` must be a valid
    /// dot-atom (letters, digits, hex).
    pub async fn send_as(&self, email: &Email, local: &str) -> anyhow::Result<()> {
        let message = self.build(email, local)?;
        match &self.transport {
            Transport::File(t) => {
                t.send(message).await.context("writing the message file failed")?;
            }
            Transport::Smtp(t) => {
                t.send(message).await.context("the SMTP server refused the message")?;
            }
        }
        Ok(())
    }

    fn build(&self, email: &Email, local: &str) -> anyhow::Result<Message> {
        let to: Mailbox = email.to.parse().context("invalid recipient address")?;
        // Spam filters distrust mail without a Message-ID; ours are on the sender's own domain.
        let message_id = format!("<{local}@{}>", self.from.email.domain());
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(to)
            .message_id(Some(message_id));
        if let Some(reply_to) = &email.reply_to {
            builder = builder.reply_to(reply_to.parse().context("invalid reply-to address")?);
        }
        if let Some(url) = &email.unsubscribe {
            // RFC 2369 and RFC 8058: mail clients offer "Unsubscribe" and POST to the address.
            builder = builder
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe"),
                    format!("<{url}>"),
                ))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    crate::accounts::unsubscribe::ONE_CLICK.to_string(),
                ));
        }
        let body = MultiPart::alternative()
            .singlepart(part(ContentType::TEXT_PLAIN, &email.text))
            .singlepart(part(ContentType::TEXT_HTML, &email.html));
        if email.calendar.is_none() && email.attachments.is_empty() {
            return Ok(builder.raw_header(subject_header(&email.subject)).multipart(body)?);
        }
        let mut mixed = MultiPart::mixed().multipart(body);
        if let Some(invite) = &email.calendar {
            let content_type = ContentType::parse(&format!(
                "text/calendar; charset=utf-8; method={}",
                invite.method.as_str()
            ))?;
            mixed = mixed.singlepart(
                lettre::message::Attachment::new("invite.ics".to_string()).body(invite.content.clone(), content_type),
            );
        }
        for file in &email.attachments {
            let content_type = ContentType::parse(&file.content_type)?;
            mixed = mixed.singlepart(
                lettre::message::Attachment::new(file.filename.clone()).body(file.content.clone(), content_type),
            );
        }
        Ok(builder.raw_header(subject_header(&email.subject)).multipart(mixed)?)
    }
}

/// Bytes of UTF-8 per encoded word: 45 bytes are 60 base64 characters, and with `=?utf-8?b?` and
/// `?=` the word stays within RFC 2047's 75.
const ENCODED_WORD_BYTES: usize = 45;

/// The `Subject` header of `subject`, which may hold what a visitor typed (the contact form's
/// subject): control characters (line breaks included) become spaces, and anything but plain
/// printable ASCII, or text that looks like an encoded word (`=?`), is sent as RFC 2047 encoded
/// words (base64 UTF-8), folded between words. Plain subjects are sent as they are.
fn subject_header(subject: &str) -> HeaderValue {
    let clean: String = subject.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let plain = clean.bytes().all(|b| (0x20..0x7f).contains(&b)) && !clean.contains("=?");
    let encoded = if plain { clean.clone() } else { encoded_words(&clean) };
    HeaderValue::dangerous_new_pre_encoded(HeaderName::new_from_ascii_str("Subject"), clean, encoded)
}

fn encoded_words(text: &str) -> String {
    use base64::{Engine, engine::general_purpose::STANDARD};
    let mut words = Vec::new();
    let mut chunk = String::new();
    for c in text.chars() {
        if chunk.len() + c.len_utf8() > ENCODED_WORD_BYTES {
            words.push(format!("=?utf-8?b?{}?=", STANDARD.encode(&chunk)));
            chunk.clear();
        }
        chunk.push(c);
    }
    if !chunk.is_empty() || words.is_empty() {
        words.push(format!("=?utf-8?b?{}?=", STANDARD.encode(&chunk)));
    }
    words.join("\r\n ")
}

/// Lines of a raw 7bit/8bit body may be up to 998 octets (RFC 5322); we stay well below.
const MAX_RAW_LINE: usize = 900;

/// Sends text unencoded when its lines allow (so links stay whole in the raw message, for
/// people and tools reading `.eml` files); lettre picks quoted-printable or base64 otherwise.
fn part(content_type: ContentType, content: &str) -> SinglePart {
    let plain = !content.contains('\r') && !content.contains('\0') && content.lines().all(|l| l.len() <= MAX_RAW_LINE);
    let body = if plain {
        let encoding = if content.is_ascii() {
            ContentTransferEncoding::SevenBit
        } else {
            ContentTransferEncoding::EightBit
        };
        Body::dangerous_pre_encoded(content.replace('\n', "\r\n").into_bytes(), encoding)
    } else {
        Body::new(content.to_owned())
    };
    SinglePart::builder().header(content_type).body(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw_subject(mailer: &Mailer, subject: &str) -> String {
        let email = Email {
            to: "support@example.com".into(),
            subject: subject.into(),
            text: "Hello".into(),
            html: "<p>Hello</p>".into(),
            reply_to: None,
            calendar: None,
            unsubscribe: None,
            attachments: Vec::new(),
        };
        let raw = String::from_utf8(mailer.build(&email, "id").unwrap().formatted()).unwrap();
        let head = raw.split("\r\n\r\n").next().unwrap();
        let start = head.find("\r\nSubject: ").expect("a Subject header") + 2;
        let rest = &head[start..];
        // The header and its folded lines (each continuation starts with a space).
        let mut end = rest.find("\r\n").unwrap_or(rest.len());
        while rest[end..].starts_with("\r\n ") {
            end += 2 + rest[end + 2..].find("\r\n").unwrap_or(rest.len() - end - 2);
        }
        rest[..end].to_string()
    }

    fn decoded(header: &str) -> String {
        use base64::{Engine, engine::general_purpose::STANDARD};
        let value = header.strip_prefix("Subject: ").unwrap();
        if !value.starts_with("=?") {
            return value.to_string();
        }
        let bytes: Vec<u8> = value
            .split("\r\n ")
            .flat_map(|w| {
                let b64 = w.strip_prefix("=?utf-8?b?").unwrap().strip_suffix("?=").unwrap();
                STANDARD.decode(b64).unwrap()
            })
            .collect();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_typed_subject_is_encoded_in_the_header_and_cannot_add_headers() {
        let dir = std::env::temp_dir().join(format!("mail-{}", uuid::Uuid::new_v4()));
        let dir_text = dir.display().to_string();
        let config = Config::from_lookup(|k| (k == "MAIL_DIR").then(|| dir_text.clone())).unwrap();
        let mailer = Mailer::from_config(&config).unwrap();
        assert_eq!(
            raw_subject(&mailer, "[Contact] Billing: refund"),
            "Subject: [Contact] Billing: refund"
        );
        for typed in [
            "[Contact] General Inquiry: Café ☕ über",
            "[Contact] General Inquiry: =?utf-8?q?Your_account_is_closed?=",
            "[Contact] General Inquiry: hi\r\nBcc: victim@example.com\x1b[31m",
            &format!("[Contact] General Inquiry: {}", "ü".repeat(200)),
        ] {
            let header = raw_subject(&mailer, typed);
            assert!(header.is_ascii(), "{header}");
            // RFC 2047: no encoded word longer than 75 characters, one per folded line.
            assert!(
                header
                    .trim_start_matches("Subject: ")
                    .split("\r\n ")
                    .all(|word| word.len() <= 75),
                "{header}"
            );
            assert!(!header.contains("\r\nBcc") && !header.contains('\x1b'), "{header}");
            let expected: String = typed.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
            assert_eq!(decoded(&header), expected);
            if !expected.is_ascii() || expected.contains("=?") {
                assert!(header.starts_with("Subject: =?utf-8?b?"), "{header}");
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_governed_mail_shows_why_and_how_to_stop_in_both_parts() {
        let email = Email {
            to: "ann@example.com".into(),
            subject: "Hi".into(),
            text: "Hello\n".into(),
            html: "<!doctype html>\n<html><body><p>Hello</p>\n</body></html>\n".into(),
            reply_to: None,
            calendar: None,
            unsubscribe: None,
            attachments: Vec::new(),
        }
        .governed_by(
            "Review requests",
            "https://m.example/api/email/unsubscribe?token=a.b&c",
            "https://m.example/dashboard?tab=email-preferences",
        );
        assert_eq!(
            email.unsubscribe.as_deref(),
            Some("https://m.example/api/email/unsubscribe?token=a.b&c")
        );
        assert!(email.text.starts_with("Hello\n--\n"), "{}", email.text);
        assert!(email.text.contains("\"Review requests\" is on"), "{}", email.text);
        assert!(
            email
                .text
                .contains("Unsubscribe: https://m.example/api/email/unsubscribe?token=a.b&c\n")
        );
        assert!(
            email
                .text
                .contains("Email preferences: https://m.example/dashboard?tab=email-preferences\n")
        );
        assert!(
            email
                .html
                .contains("<a href=\"https://m.example/api/email/unsubscribe?token=a.b&amp;c\"")
        );
        assert!(email.html.contains(">Unsubscribe</a>"));
        assert!(
            email.html.contains(">Email preferences</a></p>\n</body></html>"),
            "{}",
            email.html
        );
        assert!(email.html.contains("&quot;Review requests&quot; is on"));
    }

    /// A mailer writing `.eml` files to a new temporary folder, and a short mail to send with it.
    fn mailer_writing_files() -> (std::path::PathBuf, Mailer, Email) {
        let dir = std::env::temp_dir().join(format!("mail-{}", uuid::Uuid::new_v4()));
        let dir_text = dir.display().to_string();
        let config = Config::from_lookup(|k| match k {
            "MAIL_DIR" => Some(dir_text.clone()),
            "MAIL_FROM" => Some("Mystic Mentors <hello@mail.mystic.example>".into()),
            _ => None,
        })
        .unwrap();
        let mailer = Mailer::from_config(&config).unwrap();
        let email = Email {
            to: "ann@example.com".into(),
            subject: "Hi".into(),
            text: "Hello".into(),
            html: "<p>Hello</p>".into(),
            reply_to: None,
            calendar: None,
            unsubscribe: None,
            attachments: Vec::new(),
        };
        (dir, mailer, email)
    }

    #[tokio::test]
    async fn every_mail_has_a_message_id_on_the_senders_domain() {
        let (dir, mailer, email) = mailer_writing_files();
        mailer.send(&email).await.unwrap();
        mailer.send(&email).await.unwrap();
        let mut ids = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let raw = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            let id = raw
                .lines()
                .find_map(|l| l.strip_prefix("Message-ID: "))
                .expect("a Message-ID header")
                .to_string();
            assert!(id.starts_with('<') && id.ends_with("@mail.mystic.example>"), "{id}");
            ids.push(id);
        }
        assert_eq!(ids.len(), 2);
        assert_ne!(ids[0], ids[1]);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_mail_sent_as_a_key_keeps_its_message_id() {
        let (dir, mailer, email) = mailer_writing_files();
        let key = &sends::Key::of_task("01JD8X4P2M6Q7R8S9T0V1W2X3Y", ["ann@example.com"])[0];
        let message_id = |m: Message| {
            let raw = String::from_utf8(m.formatted()).unwrap();
            raw.lines()
                .find_map(|l| l.strip_prefix("Message-ID: "))
                .unwrap()
                .to_string()
        };
        let first = message_id(mailer.build(&email, &key.message_id()).unwrap());
        let again = message_id(mailer.build(&email, &key.message_id()).unwrap());
        assert_eq!(first, again);
        assert_eq!(first, format!("<{}@mail.mystic.example>", key.message_id()));
        std::fs::remove_dir_all(&dir).ok();
    }
}
