//! A minimal SMTP server speaking the real protocol (RFC 5321 subset), for tests: it accepts
//! every message, or refuses every DATA with 554 when `refuse` is set.

use std::sync::{Arc, Mutex};

use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::TcpListener,
};

#[derive(Clone, Debug)]
pub struct Received {
    pub from: String,
    pub to: Vec<String>,
    pub data: String,
}

pub struct SmtpServer {
    pub port: u16,
    pub received: Arc<Mutex<Vec<Received>>>,
}

impl SmtpServer {
    pub async fn start(refuse: bool) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let store = received.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let store = store.clone();
                tokio::spawn(async move {
                    let _ = session(socket, store, refuse).await;
                });
            }
        });
        Self { port, received }
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    pub fn messages(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

async fn session(socket: tokio::net::TcpStream, store: Arc<Mutex<Vec<Received>>>, refuse: bool) -> std::io::Result<()> {
    let (read, mut write) = socket.into_split();
    let mut lines = BufReader::new(read).lines();
    write.write_all(b"220 test-smtp ready\r\n").await?;
    let (mut from, mut to) = (String::new(), Vec::new());
    while let Some(line) = lines.next_line().await? {
        let upper = line.to_ascii_uppercase();
        if upper.starts_with("EHLO") || upper.starts_with("HELO") {
            write.write_all(b"250-test-smtp\r\n250 8BITMIME\r\n").await?;
        } else if upper.starts_with("MAIL FROM:") {
            from = line[10..].trim().to_string();
            write.write_all(b"250 OK\r\n").await?;
        } else if upper.starts_with("RCPT TO:") {
            to.push(line[8..].trim().to_string());
            write.write_all(b"250 OK\r\n").await?;
        } else if upper == "DATA" {
            if refuse {
                write.write_all(b"554 Transaction failed\r\n").await?;
                continue;
            }
            write.write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n").await?;
            let mut data = String::new();
            while let Some(l) = lines.next_line().await? {
                if l == "." {
                    break;
                }
                data.push_str(l.strip_prefix('.').unwrap_or(&l));
                data.push('\n');
            }
            store.lock().unwrap().push(Received {
                from: from.clone(),
                to: std::mem::take(&mut to),
                data,
            });
            write.write_all(b"250 OK queued\r\n").await?;
        } else if upper == "RSET" || upper == "NOOP" {
            write.write_all(b"250 OK\r\n").await?;
        } else if upper == "QUIT" {
            write.write_all(b"221 Bye\r\n").await?;
            break;
        } else {
            write.write_all(b"502 Command not implemented\r\n").await?;
        }
    }
    Ok(())
}
