//! The sizing what-if in German (#37): its headings, form labels, options, hints, figures,
//! table heads, notes and titles speak German to a German reader, a linked pilot's query
//! included; the English page is unchanged.

use crate::helpers::spawn_app;
use crate::languages::english_left;

/// English words of the sizing page: none may show on it in German.
const ENGLISH_OF_THE_PAGE: &[&str] = &[
    "Sizing what-if",
    "Memory per card, KV cache, sessions that fit",
    "Loading the catalog",
    ">Model<",
    ">Weights<",
    ">KV cache<",
    ">Copies<",
    "Context per session (tokens)",
    "Prompt + answer of one request",
    ">Memory model<",
    "Planning convention",
    "vLLM prediction",
    "Planning: the guide's convention",
    "vLLM version (optional)",
    "Per-stream target",
    ">Recompute<",
    "aria-label=\"What-if\"",
    "tensor parallel: one copy split across cards",
    "pipeline stages of one copy",
    "independent copies, each with its own weights",
    ">Fits<",
    "Does not fit",
    "card(s)",
    ">Whole sessions<",
    "all copies (floor)",
    "tokens per copy",
    ">Max concurrency<",
    "per copy, at full context",
    ">Decode ceiling<",
    "one stream (TPOT",
    "The ceiling is above the target",
    "The ceiling is below the target",
    ">The arithmetic<",
    ">Step<",
    ">Value<",
    ">Unit<",
    ">How<",
    "Every GPU in the catalog",
    "Memory, GiB",
    "Bandwidth, GB/s",
    ">Sessions<",
    "KV cache, tokens",
    "Decode ceiling, tok/s",
    ">fits<",
    ">no<",
    "as the driver (nvidia-smi) reports it",
    "Recommendation for a demand",
    "Every configuration of every catalog GPU",
    "Only the precisions that passed",
    "Peak concurrent sessions",
    ">Card limit<",
    "Also size formats a card only emulates",
    "the card runs them through emulation",
    "tokens per session; per-stream target",
    ">Rank<",
    ">Topology<",
    ">Cards<",
    "Headroom ×",
    "sessions that fit ÷ sessions needed",
    "an upper bound no system reaches",
    ">Arithmetic<",
    ">show<",
    "other configurations do not fit",
    "Add a model from its config.json",
    "Paste the model's Hugging Face",
    "from the config when empty",
    "from the name when empty",
    ">Add model<",
    "is not in the catalog",
    "choose a model from the list",
    "(edited here)",
    "(added here)",
    "\nWeights ",
    "\nKV cache ",
    "\nFree ",
    "Single-stream decode ceiling",
    "\ntarget ",
];

/// The pilot page's link: the demo pilot's model and cards, with the precisions its evaluation
/// set passed.
const PILOT_QUERY: &str =
    "/sizing?model=qwen2.5-7b&gpu=v100-sxm2-16gb&tp=4&weights=fp16&kv=16bit&precisions=bf16,fp16";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_reader_reads_the_sizing_page_in_german() {
    let app = spawn_app().await;
    let admin = app.admin().await;

    // English first: the page as it always was.
    let english = app.page(&admin, "/sizing").await;
    assert!(english.contains("<html lang=\"en\""));
    for heading in [
        "Sizing what-if",
        ">The arithmetic<",
        "Recommendation for a demand",
        ">Whole sessions<",
        "\nWeights 67.7 GiB\n",
        "\ntarget 25.0 tok/s (TPOT 40 ms)\n",
    ] {
        assert!(english.contains(heading), "`{heading}` missing in English");
    }

    app.choose_language(&admin, "de").await;

    let html = app.page(&admin, "/sizing").await;
    assert!(html.contains("<html lang=\"de\""));
    for german in [
        "Dimensionierung: Was-wäre-wenn",
        "Speicher je Karte, KV-Cache, passende Sitzungen",
        "aria-label=\"Was-wäre-wenn\"",
        ">Modell<",
        ">Gewichte<",
        ">KV-Cache<",
        ">Kopien<",
        "Kontext je Sitzung (Token)",
        "Prompt + Antwort einer Anfrage",
        ">Speichermodell<",
        "Planungskonvention (0,9 × Treiberspeicher − 3 GiB je Karte)",
        "Planung: die Konvention des Leitfadens",
        "vLLM-Version (optional)",
        "Ziel je Stream: TPOT ≤ (ms)",
        ">Neu berechnen<",
        "Tensor-Parallel: eine Kopie auf mehrere Karten verteilt",
        ">Passt<",
        "Karte(n)",
        ">Ganze Sitzungen<",
        "alle Kopien (abgerundet)",
        "Token je Kopie",
        ">Max. Parallelität<",
        ">Decode-Obergrenze<",
        "ein Stream (TPOT",
        "Die Obergrenze liegt",
        ">Die Rechnung<",
        ">Schritt<",
        ">Wert<",
        ">Einheit<",
        "Jede GPU im Katalog, gleiches Modell, gleiche Präzision und Topologie",
        "Speicher, GiB",
        "Bandbreite, GB/s",
        ">Sitzungen<",
        "KV-Cache, Token",
        "Decode-Obergrenze, tok/s",
        ">passt<",
        "Empfehlung für einen Bedarf",
        "Jede Konfiguration jeder Katalog-GPU",
        "Gleichzeitige Sitzungen zur Spitze",
        ">Kartenlimit<",
        "Auch Formate dimensionieren, die eine Karte nur emuliert",
        "Token je Sitzung; Ziel je Stream",
        ">Rang<",
        ">Topologie<",
        ">Karten<",
        "Reserve ×",
        ">Rechnung<",
        ">anzeigen<",
        "weitere Konfigurationen passen nicht",
        "Ein Modell aus seiner config.json hinzufügen",
        "aus der config.json, wenn leer",
        ">Modell hinzufügen<",
        "\nGewichte 67,7 GiB\n",
        "\nKV-Cache 15,3 GiB\n",
        "Decode-Obergrenze eines Streams, Token/s (obere Schranke)",
        "\nZiel 25,0 tok/s (TPOT 40 ms)\n",
        "\n22,6\n",
        "\n113,3\n",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German sizing page"
        );
    }
    assert_eq!(
        english_left(&html, ENGLISH_OF_THE_PAGE),
        Vec::<String>::new(),
        "English left on the sizing page"
    );

    // A pilot's link: its precisions, its cards, a model the catalog lacks.
    let pilot = app.page(&admin, PILOT_QUERY).await;
    assert!(
        pilot.contains(
            "Nur die Präzisionen, die den Evaluationsdatensatz des Pilots bestanden haben:"
        ),
        "the pilot's precisions in German"
    );
    assert!(pilot.contains("Kopien") && pilot.contains(">Passt<"));
    assert_eq!(
        english_left(&pilot, ENGLISH_OF_THE_PAGE),
        Vec::<String>::new(),
        "English left"
    );

    let unknown = app
        .page(
            &admin,
            "/sizing?model=acme%2Fsecret-13b&gpu=Acme%20NPU%209&weights=fp16&kv=16bit",
        )
        .await;
    assert!(unknown.contains("Modell „acme/secret-13b“ ist nicht im Katalog"));
    assert!(unknown.contains("GPU „Acme NPU 9“ ist nicht im Katalog"));
    assert!(unknown.contains("„acme/secret-13b“: nicht im Katalog"));
    assert_eq!(
        english_left(&unknown, ENGLISH_OF_THE_PAGE),
        Vec::<String>::new(),
        "English left"
    );
}
