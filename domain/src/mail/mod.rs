//! Outgoing e-mail through lettre: `.eml` files on a developer machine, SMTP in production.

pub mod calendar;
pub mod templates;

/// The product's name in every mail and calendar invite.
pub const PRODUCT_NAME: &str = "Mystic Mentors";

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
                        .timeout(Some(std::time::Duration::from_secs(20)))
                        .build(),
                )
            }
        };
        Ok(Self { from, transport })
    }

    pub async fn send(&self, email: &Email) -> anyhow::Result<()> {
        let message = self.build(email)?;
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

    fn build(&self, email: &Email) -> anyhow::Result<Message> {
        let to: Mailbox = email.to.parse().context("invalid recipient address")?;
        // Spam filters distrust mail without a Message-ID; ours are on the sender's own domain.
        let message_id = format!("<{}@{}>", uuid::Uuid::new_v4().simple(), self.from.email.domain());
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
        let body = match &email.calendar {
            None => body,
            Some(invite) => {
                let content_type = ContentType::parse(&format!(
                    "text/calendar; charset=utf-8; method={}",
                    invite.method.as_str()
                ))?;
                MultiPart::mixed().multipart(body).singlepart(
                    lettre::message::Attachment::new("invite.ics".to_string())
                        .body(invite.content.clone(), content_type),
                )
            }
        };
        Ok(builder.subject(&email.subject).multipart(body)?)
    }
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

    #[tokio::test]
    async fn every_mail_has_a_message_id_on_the_senders_domain() {
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
        };
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
}
