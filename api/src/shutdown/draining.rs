//! The api's listening socket, closed on a restart without resetting a connection.
//!
//! Closing a listening socket resets every connection whose handshake the kernel completed but the
//! process has not accepted yet, including one that completes between the last accept and the close.
//! So on stop the socket first gets a filter that drops new connection requests (a SYN without ACK):
//! the client's TCP sends it again a second later, finds the port closed and is refused, and a load
//! balancer tries another process. Handshakes already under way still complete; the acceptor takes
//! every connection that arrives for [`HANDSHAKE_SETTLE`], then closes the socket.

use std::{io, time::Duration};

use poem::{
    listener::{Acceptor, TcpAcceptor},
    web::{LocalAddr, RemoteAddr},
};
use socket2::{SockFilter, SockRef, Socket};
use tokio::sync::watch;

/// How long after the stop connections whose handshake was under way get to be accepted.
pub(super) const HANDSHAKE_SETTLE: Duration = Duration::from_millis(100);

/// After the listener is closed, accepted connections get this long to have their request read
/// before the server's graceful shutdown closes every connection with no request in flight.
pub const READ_GRACE: Duration = Duration::from_millis(500);

/// The TCP header's flags byte; the socket filter sees the segment from its TCP header on.
const TCP_FLAGS_OFFSET: u32 = 13;
const SYN: u32 = 0x02;
const ACK: u32 = 0x10;

// Classic BPF opcodes (linux/bpf_common.h).
const LOAD_BYTE_ABSOLUTE: u16 = 0x30;
const AND_CONSTANT: u16 = 0x54;
const JUMP_IF_EQUAL: u16 = 0x15;
const RETURN_CONSTANT: u16 = 0x06;
/// A socket filter returns how much of the segment to keep: none drops it, all keeps it.
const DROP: u32 = 0;
const KEEP: u32 = u32::MAX;

/// Drops a segment that opens a connection (SYN set, ACK not) and keeps every other.
fn refuse_new_connections() -> [SockFilter; 5] {
    [
        SockFilter::new(LOAD_BYTE_ABSOLUTE, 0, 0, TCP_FLAGS_OFFSET),
        SockFilter::new(AND_CONSTANT, 0, 0, SYN | ACK),
        // Equal to SYN alone: go on to the next instruction (drop); else skip it (keep).
        SockFilter::new(JUMP_IF_EQUAL, 0, 1, SYN),
        SockFilter::new(RETURN_CONSTANT, 0, 0, DROP),
        SockFilter::new(RETURN_CONSTANT, 0, 0, KEEP),
    ]
}

/// Stops a [`Draining`] acceptor.
pub struct Accepting {
    stop: watch::Sender<bool>,
    closed: watch::Receiver<bool>,
}

impl Accepting {
    /// Tells the acceptor to hold off new connections and accept the ones under way (at once, not
    /// when first polled); the future resolves once the socket is closed.
    pub fn stop(mut self) -> impl Future<Output = ()> {
        let _ = self.stop.send(true);
        async move {
            // An error means the acceptor is gone, and with it the socket.
            let _ = self.closed.wait_for(|closed| *closed).await;
        }
    }
}

/// poem's TCP acceptor, closed by [`Accepting::stop`] as the module says.
pub struct Draining {
    inner: Option<TcpAcceptor>,
    /// A second handle on the listening socket, to set its filter while `inner` owns it.
    socket: Option<Socket>,
    local: Vec<LocalAddr>,
    stop: watch::Receiver<bool>,
    closed: watch::Sender<bool>,
    settle_until: Option<tokio::time::Instant>,
}

impl Draining {
    /// Listens on `port` of every IPv4 interface (0: a free port, see [`Draining::port`]).
    pub async fn bind(port: u16) -> io::Result<(Self, Accepting)> {
        Self::bind_on(std::net::Ipv4Addr::UNSPECIFIED.into(), port).await
    }

    /// Listens on `port` of `host` (`HOST`: 127.0.0.1 under `scripts/run`).
    pub async fn bind_on(host: std::net::IpAddr, port: u16) -> io::Result<(Self, Accepting)> {
        let listener = tokio::net::TcpListener::bind((host, port)).await?;
        let socket = SockRef::from(&listener).try_clone()?;
        let inner = TcpAcceptor::from_tokio(listener)?;
        let (stop_tx, stop) = watch::channel(false);
        let (closed, closed_rx) = watch::channel(false);
        let draining = Self {
            local: inner.local_addr(),
            inner: Some(inner),
            socket: Some(socket),
            stop,
            closed,
            settle_until: None,
        };
        Ok((
            draining,
            Accepting {
                stop: stop_tx,
                closed: closed_rx,
            },
        ))
    }

    /// The port it listens on.
    pub fn port(&self) -> Option<u16> {
        self.local.iter().find_map(|local| match &local.0 {
            poem::Addr::SocketAddr(addr) => Some(addr.port()),
            _ => None,
        })
    }

    fn begin_settling(&mut self) {
        if let Some(socket) = &self.socket
            && let Err(e) = socket.attach_filter(&refuse_new_connections())
        {
            // Without the filter a connection may still be reset; the restart goes on.
            tracing::warn!(error = %e, "cannot hold off new connections while draining");
        }
        self.settle_until = Some(tokio::time::Instant::now() + HANDSHAKE_SETTLE);
    }

    fn close(&mut self) {
        self.inner = None;
        self.socket = None;
        let _ = self.closed.send(true);
        tracing::info!("stopped accepting connections");
    }
}

impl Acceptor for Draining {
    type Io = <TcpAcceptor as Acceptor>::Io;

    fn local_addr(&self) -> Vec<LocalAddr> {
        self.local.clone()
    }

    async fn accept(&mut self) -> io::Result<(Self::Io, LocalAddr, RemoteAddr, poem::http::uri::Scheme)> {
        loop {
            if self.inner.is_none() {
                return std::future::pending().await;
            }
            if self.settle_until.is_none() && *self.stop.borrow() {
                self.begin_settling();
            }
            let Some(inner) = self.inner.as_mut() else { continue };
            match self.settle_until {
                Some(until) => tokio::select! {
                    accepted = inner.accept() => return accepted,
                    _ = tokio::time::sleep_until(until) => self.close(),
                },
                None => tokio::select! {
                    accepted = inner.accept() => return accepted,
                    changed = self.stop.changed() => {
                        if changed.is_err() {
                            // The sender is gone: stop as if told to.
                            self.stop = watch::channel(true).1;
                        }
                    }
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::SocketAddr;

    use super::*;

    #[tokio::test]
    async fn listens_on_the_host_it_is_given_only() {
        let (loopback, _a) = Draining::bind_on([127, 0, 0, 1].into(), 0).await.unwrap();
        let (every, _b) = Draining::bind(0).await.unwrap();
        let ips = |d: &Draining| {
            d.local
                .iter()
                .filter_map(|l| match &l.0 {
                    poem::Addr::SocketAddr(a) => Some(a.ip().to_string()),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(ips(&loopback), ["127.0.0.1"]);
        assert_eq!(ips(&every), ["0.0.0.0"]);
    }

    #[tokio::test]
    async fn a_connection_arriving_while_draining_is_refused_not_reset() {
        let (mut acceptor, accepting) = Draining::bind(0).await.unwrap();
        let addr = SocketAddr::from(([127, 0, 0, 1], acceptor.port().unwrap()));
        // Handshake completed, waiting in the kernel's queue.
        let _queued = tokio::net::TcpStream::connect(addr).await.unwrap();

        let stopped = accepting.stop();
        tokio::pin!(stopped);
        // The first accept after the stop sets the filter, then takes the queued connection.
        acceptor.accept().await.expect("the queued connection is accepted");
        // Sends its SYN as soon as this (single-threaded) test yields, long before the socket closes.
        let late = tokio::spawn(tokio::net::TcpStream::connect(addr));
        tokio::select! {
            _ = &mut stopped => {}
            accepted = acceptor.accept() => match accepted {
                Ok((_, _, remote, _)) => panic!("accepted {remote:?}, which arrived after the stop"),
                Err(e) => panic!("accept failed: {e}"),
            },
        }

        // Without the filter its handshake completes: accepted while settling or, a moment later, reset.
        let late = late.await.unwrap().map_err(|e| e.kind());
        assert_eq!(late.err(), Some(io::ErrorKind::ConnectionRefused));
    }
}
