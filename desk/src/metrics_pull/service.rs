//! The scheduler and the scrape (see the parent module).

use super::*;
use crate::ServiceError;
use crate::Services;
use crate::model::{EvidenceKind, SessionUser};
use crate::store::metrics_sources::{Attempt, SourceRow};
use engine::traffic::timestamp::format_rfc3339_ms;
use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// Largest scrape read (real ones are tens of KiB).
const MAX_BYTES: usize = crate::traffic::service::MAX_SCRAPE_BYTES as usize;
/// How long one scrape may take.
const TIMEOUT: Duration = Duration::from_secs(10);
/// How long a lease holds (longer than a scrape can take).
const LEASE_MS: i64 = 60_000;
/// Pulled scrapes kept whole for this long; before it, the first of each hour.
const KEEP_ALL_MS: i64 = 2 * 3_600_000;

fn internal(error: impl std::fmt::Display) -> ServiceError {
    tracing::error!(%error, "metrics pull failed");
    ServiceError::Internal
}

/// Hosts a scrape may reach although they are link-local or a metadata service: the server's
/// `METRICS_ALLOW_HOSTS`, lower-case host names or addresses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AllowedHosts(pub Vec<String>);

impl AllowedHosts {
    /// From `METRICS_ALLOW_HOSTS`: comma-separated, blanks ignored.
    pub fn parse(text: &str) -> AllowedHosts {
        AllowedHosts(
            text.split(',')
                .map(|h| h.trim().trim_matches(['[', ']']).to_ascii_lowercase())
                .filter(|h| !h.is_empty())
                .collect(),
        )
    }

    fn allows(&self, host: &str) -> bool {
        let host = host.trim_matches(['[', ']']).to_ascii_lowercase();
        self.0.contains(&host)
    }
}

/// Why an address may not be scraped: link-local (which holds every cloud's metadata service
/// on IPv4) or a metadata address of its own; `None` when it may.
pub fn forbidden_address(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) if v4.is_link_local() => Some("a link-local address"),
        IpAddr::V4(v4) if v4.octets() == [100, 100, 100, 200] => Some("a cloud metadata service"),
        IpAddr::V4(v4) if v4.is_unspecified() || v4.is_broadcast() => Some("not a host address"),
        IpAddr::V6(v6) if (v6.segments()[0] & 0xffc0) == 0xfe80 => Some("a link-local address"),
        IpAddr::V6(v6) if v6.segments() == [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254] => {
            Some("a cloud metadata service")
        }
        IpAddr::V6(v6) if v6.is_unspecified() => Some("not a host address"),
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .and_then(|v4| forbidden_address(IpAddr::V4(v4))),
        _ => None,
    }
}

/// Host names of metadata services, refused before they are resolved.
const METADATA_NAMES: [&str; 3] = ["metadata.google.internal", "metadata", "instance-data"];

/// The URL a source is scraped at: its own, or a Prometheus base URL's `/federate` with the
/// selector.
pub fn scrape_url(url: &str, selector: Option<&str>) -> Result<reqwest::Url, String> {
    let mut parsed =
        reqwest::Url::parse(url.trim()).map_err(|e| format!("url: not a URL ({e})"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!("url: `{}` is not http or https", parsed.scheme()));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err("url: no host".into());
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err("url: no user or password in the URL; use bearer_token".into());
    }
    if let Some(selector) = selector.map(str::trim).filter(|s| !s.is_empty()) {
        let path = format!("{}/federate", parsed.path().trim_end_matches('/'));
        parsed.set_path(&path);
        parsed.set_query(None);
        parsed.query_pairs_mut().append_pair("match[]", selector);
    }
    Ok(parsed)
}

/// The addresses `url`'s host resolves to, each allowed ([`forbidden_address`] unless
/// `allowed` names the host).
pub async fn checked_addresses(
    url: &reqwest::Url,
    allowed: &AllowedHosts,
) -> Result<Vec<SocketAddr>, String> {
    let host = url.host_str().unwrap_or_default().to_string();
    let port = url.port_or_known_default().unwrap_or(80);
    let exempt = allowed.allows(&host);
    if !exempt && METADATA_NAMES.contains(&host.to_ascii_lowercase().as_str()) {
        return Err(format!(
            "url: {host} is a cloud metadata service; the server's METRICS_ALLOW_HOSTS must name it"
        ));
    }
    let lookup = host.trim_matches(['[', ']']).to_string();
    let addresses: Vec<SocketAddr> = tokio::net::lookup_host((lookup.as_str(), port))
        .await
        .map_err(|e| format!("url: {host} does not resolve ({e})"))?
        .collect();
    if addresses.is_empty() {
        return Err(format!("url: {host} resolves to no address"));
    }
    if !exempt
        && let Some((ip, why)) = addresses
            .iter()
            .find_map(|a| forbidden_address(a.ip()).map(|why| (a.ip(), why)))
    {
        return Err(format!(
            "url: {host} is {why} ({ip}); the server's METRICS_ALLOW_HOSTS must name it to be scraped"
        ));
    }
    Ok(addresses)
}

/// Sets the pilot's source after checking it (admins and assessors who can see the pilot; 404
/// otherwise): the URL, the interval, where it points. Due at once.
pub async fn set_source(
    services: &Services,
    user: &SessionUser,
    pilot_id: i64,
    input: &MetricsSourceInput,
    allowed: &AllowedHosts,
) -> Result<MetricsSourceView, ServiceError> {
    let pilot = crate::auth::editable_pilot(&services.store, user, pilot_id).await?;
    if pilot.archived_ms.is_some() {
        return Err(ServiceError::conflict_in(
            format!("pilot #{pilot_id} is archived: it takes no new evidence"),
            format!("Pilot #{pilot_id} ist archiviert: Er nimmt keine neuen Nachweise an"),
        ));
    }
    let interval = input.interval_s.unwrap_or(DEFAULT_INTERVAL_S);
    if !(MIN_INTERVAL_S..=MAX_INTERVAL_S).contains(&interval) {
        return Err(ServiceError::invalid_in(
            format!("interval_s: {interval} s; from {MIN_INTERVAL_S} to {MAX_INTERVAL_S}"),
            format!("interval_s: {interval} s; erlaubt sind {MIN_INTERVAL_S} bis {MAX_INTERVAL_S}"),
        ));
    }
    if input.url.len() > 2_000 {
        return Err(ServiceError::invalid_in(
            "url: longer than 2,000 characters",
            "url: länger als 2.000 Zeichen",
        ));
    }
    let selector = input
        .selector
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    if selector.is_some_and(|s| s.len() > 1_000) {
        return Err(ServiceError::invalid_in(
            "selector: longer than 1,000 characters",
            "selector: länger als 1.000 Zeichen",
        ));
    }
    let token = input
        .bearer_token
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    if token.is_some_and(|t| t.len() > 4_096 || t.chars().any(|c| c.is_control())) {
        return Err(ServiceError::invalid_in(
            "bearer_token: at most 4,096 characters, none of them control characters",
            "bearer_token: höchstens 4.096 Zeichen, keine Steuerzeichen",
        ));
    }
    let url = scrape_url(&input.url, selector).map_err(ServiceError::Invalid)?;
    checked_addresses(&url, allowed)
        .await
        .map_err(ServiceError::Invalid)?;
    services
        .store
        .put_metrics_source(
            pilot_id,
            input.url.trim(),
            selector,
            interval,
            token,
            Some(user.id),
        )
        .await?;
    source_view(services, pilot_id)
        .await?
        .ok_or(ServiceError::Internal)
}

/// What the traffic page's form sends: every field as typed. An empty bearer token keeps the
/// one the source has (it is never shown again, so the form cannot hold it); `clear_token`
/// removes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceForm {
    pub url: String,
    pub interval_s: String,
    pub selector: String,
    pub bearer_token: String,
    pub clear_token: bool,
}

/// Sets the pilot's source from the page's form (see [`SourceForm`]), checked as
/// [`set_source`] checks the API's body.
pub async fn set_from_form(
    services: &Services,
    user: &SessionUser,
    pilot_id: i64,
    form: &SourceForm,
) -> Result<MetricsSourceView, ServiceError> {
    crate::auth::editable_pilot(&services.store, user, pilot_id).await?;
    let interval_s = match form.interval_s.trim() {
        "" => None,
        text => Some(text.parse::<i64>().map_err(|_| {
            ServiceError::invalid_in(
                format!("interval_s: `{text}` is not a whole number of seconds"),
                format!("interval_s: `{text}` ist keine ganze Zahl von Sekunden"),
            )
        })?),
    };
    let typed = form.bearer_token.trim();
    let bearer_token = if form.clear_token {
        None
    } else if typed.is_empty() {
        services
            .store
            .metrics_source(pilot_id)
            .await?
            .and_then(|row| row.bearer_token)
    } else {
        Some(typed.to_string())
    };
    let input = MetricsSourceInput {
        url: form.url.clone(),
        interval_s,
        bearer_token,
        selector: Some(form.selector.clone()),
    };
    set_source(
        services,
        user,
        pilot_id,
        &input,
        &services.metrics_allow_hosts,
    )
    .await
}

/// Stops the pilot's pulls (editors); `false` when it had no source. The scrapes kept stay.
pub async fn remove_source(
    services: &Services,
    user: &SessionUser,
    pilot_id: i64,
) -> Result<bool, ServiceError> {
    crate::auth::editable_pilot(&services.store, user, pilot_id).await?;
    Ok(services.store.delete_metrics_source(pilot_id).await?)
}

/// The pilot's source as shown (the caller has checked who may see it).
pub async fn source_view(
    services: &Services,
    pilot_id: i64,
) -> Result<Option<MetricsSourceView>, ServiceError> {
    Ok(services
        .store
        .metrics_source(pilot_id)
        .await?
        .map(|row| view(&row)))
}

fn view(row: &SourceRow) -> MetricsSourceView {
    MetricsSourceView {
        pilot_id: row.pilot_id,
        url: row.url.clone(),
        selector: row.selector.clone(),
        interval_s: row.interval_s,
        has_bearer_token: row.bearer_token.is_some(),
        last_scrape_at: row.last_attempt_ms.map(format_rfc3339_ms),
        last_success_at: row.last_success_ms.map(format_rfc3339_ms),
        last_error: row.last_error.clone(),
        last_evidence_id: row.last_evidence_id,
        scrapes: row.scrapes,
        failures: row.failures,
        next_scrape_at: format_rfc3339_ms(row.next_due_ms),
        last_scrape_ms: row.last_attempt_ms,
        last_success_ms: row.last_success_ms,
    }
}

/// Takes one scrape of `row`: fetched from the checked addresses only, read as vLLM's metrics,
/// kept as evidence. Every failure is the attempt's error, for the page.
async fn scrape(services: &Services, row: &SourceRow, allowed: &AllowedHosts) -> Attempt {
    match scrape_and_keep(services, row, allowed).await {
        Ok(id) => Attempt::Stored(id),
        Err(why) => Attempt::Failed(why),
    }
}

async fn scrape_and_keep(
    services: &Services,
    row: &SourceRow,
    allowed: &AllowedHosts,
) -> Result<Option<i64>, String> {
    let url = scrape_url(&row.url, row.selector.as_deref())?;
    let addresses = checked_addresses(&url, allowed).await?;
    let host = url.host_str().unwrap_or_default().to_string();
    let client = reqwest::Client::builder()
        .timeout(TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .resolve_to_addrs(host.trim_matches(['[', ']']), &addresses)
        .build()
        .map_err(|e| format!("could not make the request: {e}"))?;
    let mut request = client.get(url.clone()).header("Accept", "text/plain");
    if let Some(token) = &row.bearer_token {
        request = request.bearer_auth(token);
    }
    let started = crate::store::now_ms();
    let mut response = request.send().await.map_err(|e| describe(&e))?;
    if !response.status().is_success() {
        return Err(format!("{url} answered HTTP {}", response.status()));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| describe(&e))? {
        if body.len() + chunk.len() > MAX_BYTES {
            return Err(format!("{url}: more than {} MiB", MAX_BYTES >> 20));
        }
        body.extend_from_slice(&chunk);
    }
    let text = String::from_utf8(body).map_err(|_| format!("{url}: not UTF-8 text"))?;
    if !text.contains("vllm:") {
        return Err(format!(
            "{url}: not vLLM's metrics (no vllm: series); point it at the vLLM server's /metrics"
        ));
    }
    let name = format!(
        "{PULLED_PREFIX}{}.prom",
        format_rfc3339_ms(started).replace(':', "-")
    );
    let uploaded_by = match row.created_by {
        Some(id) => id,
        None => services
            .store
            .first_admin_id()
            .await
            .map_err(|e| e.to_string())?
            .ok_or("no account to record the scrape as uploaded by")?,
    };
    let pilot = services
        .store
        .pilot(row.pilot_id)
        .await
        .map_err(|e| e.to_string())?
        .ok_or("the pilot is gone")?;
    // Taken in exactly as an upload of the same bytes: the same reader, plausibility and
    // comparability checks, so a hostile or broken target stores nothing impossible.
    let fields = BTreeMap::from([
        ("kind".to_string(), EvidenceKind::MetricsScrape.to_string()),
        ("scraped_at".to_string(), format_rfc3339_ms(started)),
    ]);
    let kept = crate::intake::take_in_fetched(
        services,
        &pilot,
        &name,
        text.as_bytes(),
        &fields,
        uploaded_by,
    )
    .await;
    match kept.as_ref().map_err(ServiceError::plain) {
        Ok((id, _)) => Ok(Some(*id)),
        // Counters that did not move and no timestamps: the same bytes as a kept scrape.
        Err(ServiceError::Duplicate(_)) => Ok(None),
        Err(ServiceError::Invalid(why)) => Err(format!("{url}: {why}")),
        Err(error) => Err(format!("the scrape could not be stored: {error}")),
    }
}

/// A request failure in words: time-out, refused, reset.
fn describe(error: &reqwest::Error) -> String {
    let what = if error.is_timeout() {
        format!("timed out after {} s", TIMEOUT.as_secs())
    } else if error.is_connect() {
        "could not connect".to_string()
    } else {
        "the request failed".to_string()
    };
    let mut source: Option<&dyn std::error::Error> = std::error::Error::source(error);
    let mut detail = String::new();
    while let Some(inner) = source {
        detail = inner.to_string();
        source = inner.source();
    }
    match error.url() {
        Some(url) if detail.is_empty() => format!("{url}: {what}"),
        Some(url) => format!("{url}: {what} ({detail})"),
        None => what,
    }
}

/// Thins out the pilot's pulled scrapes older than two hours to the first of each hour.
async fn compact(services: &Services, pilot_id: i64, now: i64) -> Result<(), ServiceError> {
    let pulled = services
        .store
        .pulled_scrapes(pilot_id, PULLED_PREFIX)
        .await?;
    let mut last_hour = None;
    let mut drop = Vec::new();
    for (id, sha, at) in pulled {
        if at >= now - KEEP_ALL_MS {
            break;
        }
        let hour = at.div_euclid(3_600_000);
        if last_hour == Some(hour) {
            drop.push((id, sha));
        }
        last_hour = Some(hour);
    }
    if drop.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = drop.iter().map(|(id, _)| *id).collect();
    services.store.delete_evidence_rows(pilot_id, &ids).await?;
    for (_, sha) in drop {
        services.blobs.release(&sha).await;
    }
    Ok(())
}

/// Runs due sources every second on this instance until the process ends (each due source is
/// taken by one instance, see the parent module). `owner` names this instance in the leases.
pub async fn run_scheduler(services: Services, allowed: AllowedHosts, owner: String) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if let Err(error) = run_due(&services, &allowed, &owner).await {
            tracing::warn!(%error, "the metrics scheduler could not run");
        }
    }
}

/// Takes every due source this instance can lease, one after another; answers how many.
pub async fn run_due(
    services: &Services,
    allowed: &AllowedHosts,
    owner: &str,
) -> Result<usize, ServiceError> {
    let now = crate::store::now_ms();
    let mut taken = 0;
    for pilot_id in services.store.due_metrics_sources(now).await? {
        let Some(row) = services
            .store
            .lease_metrics_source(pilot_id, owner, now, now + LEASE_MS)
            .await?
        else {
            continue;
        };
        taken += 1;
        let started = crate::store::now_ms();
        let attempt = scrape(services, &row, allowed).await;
        if let Attempt::Failed(why) = &attempt {
            tracing::info!(pilot_id, %why, "a metrics scrape failed");
        }
        services
            .store
            .finish_metrics_attempt(pilot_id, owner, started, &attempt)
            .await?;
        if matches!(attempt, Attempt::Stored(Some(_))) {
            compact(services, pilot_id, started)
                .await
                .map_err(internal)?;
            services.changes.tell(pilot_id);
        }
    }
    Ok(taken)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_and_link_local_addresses_are_refused() {
        let no = |s: &str| forbidden_address(s.parse().unwrap());
        assert_eq!(no("169.254.169.254"), Some("a link-local address"));
        assert_eq!(no("100.100.100.200"), Some("a cloud metadata service"));
        assert_eq!(no("fd00:ec2::254"), Some("a cloud metadata service"));
        assert_eq!(no("fe80::1"), Some("a link-local address"));
        assert_eq!(no("::ffff:169.254.169.254"), Some("a link-local address"));
        assert_eq!(no("0.0.0.0"), Some("not a host address"));
        for fine in [
            "127.0.0.1",
            "10.0.3.7",
            "192.168.1.20",
            "::1",
            "2001:db8::1",
        ] {
            assert_eq!(no(fine), None, "{fine}");
        }
    }

    #[test]
    fn a_prometheus_base_url_is_pulled_through_federate() {
        let url = scrape_url("http://prom:9090/", Some(r#"{job="vllm"}"#)).unwrap();
        assert_eq!(
            url.as_str(),
            "http://prom:9090/federate?match%5B%5D=%7Bjob%3D%22vllm%22%7D"
        );
        let url = scrape_url("http://10.0.0.5:8000/metrics", None).unwrap();
        assert_eq!(url.as_str(), "http://10.0.0.5:8000/metrics");
        assert!(
            scrape_url("ftp://x/metrics", None)
                .unwrap_err()
                .contains("not http")
        );
        assert!(
            scrape_url("http://u:p@x/metrics", None)
                .unwrap_err()
                .contains("bearer_token")
        );
        assert!(scrape_url("not a url", None).is_err());
    }

    #[tokio::test]
    async fn the_allow_list_lets_a_named_metadata_host_through() {
        let url = scrape_url("http://169.254.169.254/metrics", None).unwrap();
        let refused = checked_addresses(&url, &AllowedHosts::default())
            .await
            .unwrap_err();
        assert!(refused.contains("METRICS_ALLOW_HOSTS"), "{refused}");
        let allowed = AllowedHosts::parse(" 169.254.169.254 , other ");
        assert!(checked_addresses(&url, &allowed).await.is_ok());
        let name = scrape_url("http://metadata.google.internal/x", None).unwrap();
        assert!(
            checked_addresses(&name, &AllowedHosts::default())
                .await
                .is_err()
        );
    }
}
