//! The plan editor in German (#37): its headings, labels, options, buttons, hints and
//! confirmations speak German to a German reader — the amend card of an approved plan, the
//! draft with its pass-mark, scenario and settings forms and its approval row, and the
//! templates of a pilot without a plan; the English editor is unchanged.

use crate::helpers::spawn_app;
use crate::languages::english_left;

/// English words of the editor: none may show on it in German.
const ENGLISH_OF_THE_EDITOR: &[&str] = &[
    ">Edit the plan<",
    "Edit plan ·",
    "Loading plan…",
    "is approved and frozen",
    "Its pass marks cannot change any more",
    "Reason for the amendment",
    "Amend: start version",
    "Pass marks of version",
    "Draft version",
    "Started by",
    "last saved",
    "Reason for this amendment",
    "stays in force until this draft is approved",
    ">Pass marks<",
    "Each mark names one figure exactly",
    "Add a pass mark",
    "Add pass mark",
    "Add marks from a template",
    "Add its missing marks",
    ">Template<",
    "Marks the plan already has",
    ">Scenarios<",
    "Kinds of traffic by prompt",
    "Demand, quality set and pilot serving",
    "Worth a second look",
    "Approval: ",
    "Submit version",
    "Approve version",
    "Approve my own draft",
    "Submitting puts the draft",
    "Discard draft",
    "Discard amendment",
    "Move mark",
    "Remove mark",
    ">Remove<",
    "Edit mark",
    "Save mark",
    ">Metric<",
    "Custom metric",
    ">Statistic<",
    ">Comparator<",
    ">Threshold<",
    ">Unit<",
    ">Measured at<",
    ">Scope<",
    ">Rationale<",
    "Why this limit",
    "Empty: the metric's standard definition",
    "how the figure is computed",
    ">All traffic<",
    "Load test at the planned peak",
    "Scenario “",
    "Reads: ",
    "Not a valid mark yet",
    "Remove scenario",
    "Edit scenario",
    "Add a scenario",
    "Add scenario",
    "Save scenario",
    "No scenarios: every mark covers all traffic",
    " in, ",
    "Prompt from (tokens)",
    "Answer to (tokens)",
    "e.g. ",
    ">Demand assumptions<",
    ">Pilot users<",
    ">Production users<",
    "Peak arrival rate (req/s)",
    "Context per request (tokens)",
    "Planned peak concurrency (requests in flight)",
    ">Quality set<",
    ">Evaluation questions<",
    "k of hit rate@k",
    "recommended",
    ">Pilot hardware and serving<",
    ">Serving engine<",
    ">Engine version<",
    ">Weights precision<",
    ">KV cache dtype<",
    "engine default",
    ">Prefix caching<",
    ">CUDA graphs<",
    ">not stated<",
    ">on<",
    ">off<",
    "Save settings",
    ">Start the plan<",
    "Pick the reference targets",
    "Start from",
    "Source: ",
    ">Pilot Desk default<",
    "The source gives no number",
];

fn assert_german(html: &str, words: &[&str], what: &str) {
    assert!(html.contains("<html lang=\"de\""), "{what}: not in German");
    for german in words {
        assert!(html.contains(german), "`{german}` missing from {what}");
    }
    assert_eq!(
        english_left(html, ENGLISH_OF_THE_EDITOR),
        Vec::<String>::new(),
        "English left on {what}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_reader_edits_the_plan_in_german() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let edit = "/pilots/1/plan/edit";

    // English first: the editor as it always was (the demo pilot's plan is approved).
    let english = app.page(&admin, edit).await;
    assert!(english.contains("<html lang=\"en\""));
    assert!(english.contains(">Version 1 is approved and frozen<"));

    app.choose_language(&admin, "de").await;

    // The approved plan: the card that amends it.
    let html = app.page(&admin, edit).await;
    assert_german(
        &html,
        &[
            ">Plan bearbeiten<",
            "Plan bearbeiten · ",
            ">Version 1 ist freigegeben und eingefroren<",
            "Ihre Zielwerte können sich nicht mehr ändern",
            "Grund der Änderung",
            "Ändern: Version 2 beginnen",
            ">Zielwerte der Version 1<",
        ],
        "the amend card",
    );

    // An amendment with a scenario: the draft editor.
    app.call_ok(
        &admin,
        "amend_plan",
        &[
            ("pilot_id", "1"),
            ("reason", "Der Kunde hat das Ziel verschärft."),
        ],
    )
    .await;
    let plan = app.call_ok(&admin, "get_plan", &[("pilot_id", "1")]).await;
    let draft = plan["versions"]
        .as_array()
        .unwrap()
        .iter()
        .rfind(|v| v["status"] == "draft")
        .expect("the amendment's draft");
    let (version, revision) = (draft["number"].to_string(), draft["revision"].to_string());
    app.call_ok(
        &admin,
        "save_scenario",
        &[
            ("pilot_id", "1"),
            ("version", &version),
            ("revision", &revision),
            ("index", ""),
            ("name", "Chat"),
            ("input_tokens_low", "100"),
            ("input_tokens_high", "2000"),
            ("output_tokens_low", "100"),
            ("output_tokens_high", "200"),
        ],
    )
    .await;
    let html = app.page(&admin, edit).await;
    assert_german(
        &html,
        &[
            ">Entwurf Version 2<",
            "Begonnen von ",
            "zuletzt gespeichert",
            "Grund dieser Änderung: ",
            "Version 1 bleibt in Kraft, bis dieser Entwurf freigegeben ist.",
            "Freigabe: ",
            "Noch nicht zur Freigabe eingereicht",
            "Version 2 zur Freigabe einreichen",
            "Eigenen Entwurf freigeben (Ausnahme der Administration) · Version 2",
            "Das Einreichen legt den Entwurf den Freigebenden vor",
            ">Änderung verwerfen<",
            ">Zielwerte<",
            "Jeder Zielwert benennt genau eine Zahl",
            ">Zielwert hinzufügen<",
            "Zielwert 1 nach oben verschieben",
            "Zielwert 2 nach unten verschieben",
            "Zielwert 1 entfernen",
            ">Entfernen<",
            ">Zielwert 1 bearbeiten<",
            ">Zielwert 1 speichern<",
            ">Metrik<",
            ">Eigene Metrik…<",
            "Name der eigenen Metrik",
            ">Statistik<",
            ">Vergleich<",
            ">Grenze<",
            ">Einheit<",
            ">Messpunkt<",
            ">Geltungsbereich<",
            ">Alle Anfragen<",
            "Lasttest bei der geplanten Spitzen-Parallelität",
            "Szenario „Chat“",
            ">Warum<",
            "Leer: die Standarddefinition der Metrik",
            "In Worten: ",
            "Noch kein gültiger Zielwert",
            "Zielwerte aus einer Vorlage hinzufügen",
            ">Vorlage<",
            "Fehlende Zielwerte hinzufügen",
            ">Szenarien<",
            ": Prompt 100–2.000 Token, Antwort 100–200 Token",
            "Szenario Chat entfernen",
            ">Szenario 1 bearbeiten<",
            ">Szenario hinzufügen<",
            ">Szenario speichern<",
            "Prompt von (Token)",
            "Antwort bis (Token)",
            "Lastannahmen, Qualitätsdatensatz und Pilot-Serving",
            ">Lastannahmen<",
            ">Pilotnutzer<",
            ">Nutzer in Produktion<",
            "Spitzen-Ankunftsrate (Anfragen/s)",
            "Geplante Spitzen-Parallelität (gleichzeitige Anfragen)",
            ">Qualitätsdatensatz<",
            ">Evaluationsfragen<",
            "50–100 empfohlen",
            ">Pilot-Hardware und Serving<",
            ">Serving-Engine<",
            ">Präzision der Gewichte<",
            ">nicht angegeben<",
            ">CUDA-Graphen<",
            ">Einstellungen speichern<",
            "z. B. ",
        ],
        "the draft editor",
    );

    // A pilot without a plan: the templates to start from.
    let organisation = app.organisation(&admin, "Globex").await;
    let pilot = app.pilot(&admin, organisation, "Globex chat").await;
    let html = app
        .page(&admin, &format!("/pilots/{pilot}/plan/edit"))
        .await;
    assert_german(
        &html,
        &[
            ">Plan beginnen<",
            "Wählen Sie die Referenzziele",
            ">Mit einem leeren Plan beginnen<",
            ">Mit dieser Vorlage beginnen<",
            "Mit der Vorlage ",
            "Quelle: ",
            ">Vorgabe von Pilot Desk<",
            "Die Quelle nennt keine Zahl",
        ],
        "the templates",
    );

    // Someone reading English still gets the English draft editor, word for word.
    // (Signing in brings the account's German along: this reader switches back.)
    let reader = app.admin().await;
    app.choose_language(&reader, "en").await;
    let english = app.page(&reader, edit).await;
    assert!(english.contains("<html lang=\"en\""));
    for words in [
        ">Draft version 2<",
        ">Add a pass mark<",
        "Submit version 2 for approval",
        "Approve my own draft (administrator's override) · version 2",
        ">Edit mark 1<",
        ">Save settings<",
        ": 100–2,000 tokens in, 100–200 tokens out",
    ] {
        assert!(english.contains(words), "`{words}` missing in English");
    }
}
