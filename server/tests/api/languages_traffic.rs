//! The traffic page in German (#37): the demand profile, the cross-checks, production demand,
//! the gateway logs, the `/metrics` scrapes, the live ingest tokens and the metrics source carry
//! their German words and none of their English ones; in English it reads as before.

use crate::helpers::spawn_app;
use reqwest::StatusCode;
use std::path::PathBuf;

fn scrape(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/er0080-vllm-benchmarking")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_viewer_reads_the_traffic_page_in_german() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    app.choose_language(&admin, "de").await;

    // The demo pilot has a gateway log; its `/metrics` scrapes come below.
    let html = app.page(&admin, "/pilots/1/traffic").await;
    assert!(html.contains("<html lang=\"de\""));
    for german in [
        // The page and the demand measured at the gateway.
        "Verkehr · ",
        ">Piloten<",
        " / Verkehr",
        "Realer Verkehr",
        "Ankunftsrate der Spitzenstunde",
        "Gleichzeitige Anfragen in der Spitze",
        "Token je Anfrage (Prompt + Antwort)",
        "Ankünfte und Parallelität",
        "Token-Längen (erfolgreiche Anfragen)",
        "Nachfrageprofil",
        ">Größe<",
        ">Wert<",
        ">Einheit<",
        ">Spitzenstunde<",
        ">Abgebrochen<",
        ">Fehlgeschlagen<",
        "Prüfung nach Littles Gesetz",
        "Gateway-Latenz (ms)",
        "Gleichzeitige Anfragen, gegengeprüft",
        "Diesen Verkehr nachspielen",
        "Spitzenstunde der Produktion (.jsonl)",
        // Production demand.
        "Nachfrage in der Produktion",
        ">Pilotnutzer<",
        ">Nutzer in Produktion<",
        ">Kontext je Sitzung<",
        ">Berechnen<",
        // The gateway logs, no scrape yet.
        ">Gateway-Logs<",
        ">Übersprungene Zeilen<",
        ">Hochgeladen<",
        "Noch kein /metrics-Scrape",
        // The live feed and the metrics source.
        "Live-Zufluss vom Gateway: Ingest-Token",
        "Neues Ingest-Token",
        ">Token anlegen<",
        "vLLM /metrics, planmäßig abgerufen",
        ">Adresse<",
        ">Abruf starten<",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German traffic page"
        );
    }
    for english in [
        "Traffic · ",
        ">Pilots<",
        " / Traffic",
        "Real traffic",
        "Busiest-hour rate",
        ">Peak in flight<",
        "tokens per request (prompt + answer)",
        "Arrivals and concurrency",
        "Token lengths (successful requests)",
        "Demand profile",
        ">Quantity<",
        ">Value<",
        ">Unit<",
        ">Busiest hour<",
        ">Cancelled<",
        ">Failed<",
        "Little's law check",
        "Gateway latency (ms)",
        "Requests in flight, cross-checked",
        "Replay this traffic",
        "Production's busiest hour (.jsonl)",
        "Production demand",
        ">Pilot users<",
        ">Production users<",
        ">Context per session<",
        ">Compute<",
        ">Gateway logs<",
        ">Skipped lines<",
        ">Uploaded<",
        "No /metrics scrape yet",
        "Live gateway feed: ingest tokens",
        "New ingest token",
        ">Create token<",
        "pulled on a schedule",
        ">Address<",
        ">Start pulling<",
        "Loading…",
    ] {
        assert!(
            !html.contains(english),
            "`{english}` left on the German traffic page"
        );
    }

    // Two scrapes: the table, the window between them and its figures.
    let token = app.api_token(&admin).await;
    for (name, at) in [
        ("metrics_vllm_0_25_1_idle.txt", "2026-03-02T09:00:00Z"),
        ("metrics_vllm_0_25_1_loaded.txt", "2026-03-02T09:01:00Z"),
    ] {
        let response = app
            .upload_evidence(&token, 1, name, scrape(name), &[("scraped_at", at)])
            .await;
        assert_eq!(response.status(), StatusCode::CREATED, "{name}");
    }
    let html = app.page(&admin, "/pilots/1/traffic").await;
    for german in [
        "vLLM-/metrics-Scrapes",
        ">Aufgenommen<",
        ">Abgeschlossen seit Start<",
        ">Momentanwerte<",
        ">KV-Cache<",
        "Zwischen zwei Scrapes",
        ">Vorher<",
        ">Nachher<",
        "Δt (Sekunden)",
        ">Vergleichen<",
        "Abgeschlossene Anfragen",
        "Histogramm (Fenster)",
        ">Warteschlange<",
        "Quantile werden aus den Histogramm-Buckets geschätzt",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German scrapes"
        );
    }
    for english in [
        "vLLM /metrics scrapes",
        ">Taken<",
        ">Finished since start<",
        ">Gauges<",
        ">KV cache<",
        "Between two scrapes",
        ">Before<",
        ">After<",
        "Δt (seconds)",
        ">Compare<",
        "Requests finished",
        "Histogram (window)",
        ">Queue<",
        "Quantiles are estimated",
        "max concurrency",
        "running ",
    ] {
        assert!(
            !html.contains(english),
            "`{english}` left on the German scrapes"
        );
    }

    // In English the page reads as before.
    app.choose_language(&admin, "en").await;
    let html = app.page(&admin, "/pilots/1/traffic").await;
    assert!(html.contains("<html lang=\"en\""));
    for english in [
        "Real traffic",
        "Demand profile",
        "Requests in flight, cross-checked",
        "Live gateway feed: ingest tokens",
        "vLLM /metrics, pulled on a schedule",
        "vLLM /metrics scrapes",
        "Between two scrapes",
    ] {
        assert!(
            html.contains(english),
            "`{english}` missing from the English traffic page"
        );
    }
    assert!(!html.contains("Nachfrageprofil"));
}
