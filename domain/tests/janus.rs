//! The Janus client against a real Janus (Debian's `janus`, started here with the project's own
//! config from scripts/janus on free ports): rooms are made and destroyed, moderation of someone
//! absent is harmless, and a token not signed with the server's secret is refused.

use std::{
    net::TcpListener,
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use domain::group_calls::{Gateway, JanusClient, JanusSettings, gateway, ids, tokens};
use uuid::Uuid;

struct Janus {
    child: Child,
    dir: PathBuf,
    settings: JanusSettings,
}

impl Drop for Janus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Renders scripts/janus/*.jcfg into a fresh folder (as scripts/lib/janus.sh does) and starts Janus.
async fn start_janus() -> Janus {
    let templates = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/janus");
    let dir = std::env::temp_dir().join(format!("janus-test-{}", Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let (http, admin, ws) = (free_port(), free_port(), free_port());
    let rtp = 30_000 + (Uuid::new_v4().as_bytes()[0] as u16) * 100;
    let (token_secret, admin_key) = (Uuid::new_v4().simple().to_string(), Uuid::new_v4().simple().to_string());
    let values = [
        ("@CONFIG_DIR@", dir.display().to_string()),
        ("@ADMIN_SECRET@", Uuid::new_v4().simple().to_string()),
        ("@TOKEN_SECRET@", token_secret.clone()),
        ("@ADMIN_KEY@", admin_key.clone()),
        ("@HTTP_PORT@", http.to_string()),
        ("@ADMIN_PORT@", admin.to_string()),
        ("@WS_PORT@", ws.to_string()),
        ("@RTP_PORTS@", format!("{rtp}-{}", rtp + 99)),
    ];
    for entry in std::fs::read_dir(&templates).expect("scripts/janus") {
        let path = entry.unwrap().path();
        let mut text = std::fs::read_to_string(&path).unwrap();
        for (name, value) in &values {
            text = text.replace(name, value);
        }
        std::fs::write(dir.join(path.file_name().unwrap()), text).unwrap();
    }
    let child = Command::new("janus")
        .args([
            "-F",
            dir.to_str().unwrap(),
            "--disable-colors",
            "-L",
            dir.join("janus.log").to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("janus is not installed: apt-get install -y janus (scripts/test installs it)");
    let settings = JanusSettings {
        http_url: format!("http://127.0.0.1:{http}/janus"),
        ws_url: format!("ws://127.0.0.1:{ws}"),
        admin_key,
        token_secret,
    };
    let janus = Janus { child, dir, settings };
    let started = Instant::now();
    while reqwest::get(format!("{}/info", janus.settings.http_url)).await.is_err() {
        assert!(started.elapsed() < Duration::from_secs(20), "janus did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    janus
}

#[tokio::test]
async fn rooms_are_created_moderated_and_destroyed() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let janus = start_janus().await;
    let client = JanusClient::new(janus.settings.clone()).unwrap();
    let session = Uuid::new_v4();
    let (room, secret) = (
        ids::room_id(session),
        ids::room_secret(&janus.settings.token_secret, session),
    );

    assert!(!client.room_exists(room).await.unwrap());
    client.create_room(room, &secret, "Full moon circle", 5).await.unwrap();
    // Creating it again (a second api process, a retry) is harmless.
    client.create_room(room, &secret, "Full moon circle", 5).await.unwrap();
    assert!(client.room_exists(room).await.unwrap());
    assert_eq!(client.participants(room).await.unwrap(), Vec::<u64>::new());

    // Moderating someone who is not there does nothing.
    let absent = ids::participant_id(Uuid::new_v4());
    client
        .set_muted(room, &secret, absent, &["0".to_owned()], true)
        .await
        .unwrap();
    client.kick(room, &secret, absent).await.unwrap();

    // The api's own long-lived session joins a member under their id; a second join under the
    // same id is refused until the first copy is kicked (what the api does for a stale copy).
    let (gateway, _events) = Gateway::start(janus.settings.clone()).unwrap();
    let member = ids::participant_id(Uuid::new_v4());
    let join = serde_json::json!({"request": "join", "ptype": "publisher", "room": room, "id": member});
    let first = gateway.attach().await.unwrap();
    let joined = gateway.message(first, join.clone(), None).await.unwrap();
    assert_eq!(joined.data["videoroom"], "joined", "{:?}", joined.data);
    assert!(joined.data["private_id"].as_u64().is_some());
    let second = gateway.attach().await.unwrap();
    let taken = gateway.message(second, join.clone(), None).await.unwrap_err();
    assert_eq!(gateway::plugin_error_code(&taken), Some(436), "{taken:#}");
    client.kick(room, &secret, member).await.unwrap();
    let mut again = gateway.message(second, join.clone(), None).await;
    for _ in 0..20 {
        if again.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        again = gateway.message(second, join.clone(), None).await;
    }
    assert_eq!(again.unwrap().data["videoroom"], "joined");
    assert_eq!(client.participants(room).await.unwrap(), vec![member]);
    gateway.detach(second).await.unwrap();
    // The wrong secret is refused.
    assert!(client.kick(room, "not-the-secret", absent).await.is_err());

    client.destroy_room(room, &secret).await.unwrap();
    assert!(!client.room_exists(room).await.unwrap());
    client.destroy_room(room, &secret).await.unwrap();
}

#[tokio::test]
async fn janus_refuses_tokens_not_signed_with_its_secret_and_rooms_without_the_admin_key() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let janus = start_janus().await;
    let wrong_secret = JanusClient::new(JanusSettings {
        token_secret: "guess".into(),
        ..janus.settings.clone()
    })
    .unwrap();
    assert!(wrong_secret.room_exists(1).await.is_err());
    let wrong_key = JanusClient::new(JanusSettings {
        admin_key: "guess".into(),
        ..janus.settings.clone()
    })
    .unwrap();
    assert!(wrong_key.create_room(7, "s", "x", 2).await.is_err());

    // An expired token is refused too.
    let expired = tokens::session_token(
        &janus.settings.token_secret,
        chrono::Utc::now() - chrono::Duration::seconds(5),
    );
    let answer: serde_json::Value = reqwest::Client::new()
        .post(&janus.settings.http_url)
        .json(&serde_json::json!({"janus": "create", "transaction": "t", "token": expired}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer["janus"], "error", "{answer}");
}
