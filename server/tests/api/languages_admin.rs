//! The administration pages (organisations, users, the GPU catalog) and the pilot form in German
//! (#37): their fixed words — headings, table heads, labels, options, buttons, hints — read in
//! German for a German reader, and the English pages stay as they were.

use crate::helpers::spawn_app;
use crate::languages::{english_left, german_missing};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_admin_reads_organisations_users_the_gpu_catalog_and_the_pilot_form_in_german() {
    let app = spawn_app().await;
    let admin = app.admin().await;

    // English first: the pages as they always were.
    let html = app.page(&admin, "/admin/users").await;
    assert!(html.contains("<html lang=\"en\""));
    assert!(html.contains("<h1>Users<"), "one English heading kept");
    assert!(html.contains("Create user") && html.contains("Reset password"));
    let html = app.page(&admin, "/admin/gpus").await;
    assert!(html.contains("GPU catalog") && html.contains("Save GPU"));
    assert!(html.contains("Unit price of NVIDIA H200 NVL"));

    app.choose_language(&admin, "de").await;

    // Users: the table, the new-user form and the password reset's button.
    let html = app.page(&admin, "/admin/users").await;
    assert!(html.contains("<html lang=\"de\""));
    let german = [
        "<h1>Benutzer<",
        "Jedes Konto hat eine Rolle",
        ">Rolle<",
        ">Status<",
        ">Aktiv<",
        ">Deaktivieren<",
        "Passwort zurücksetzen",
        ">Neuer Benutzer<",
        "E-Mail-Adresse",
        ">Passwort<",
        "Leer lassen, um eines zu erzeugen",
        "Benutzer anlegen",
        ">Kunde<",
        "(Mitarbeiter)",
    ];
    assert_eq!(german_missing(&html, &german), Vec::<&str>::new(), "users");
    let english = [
        ">Users<",
        "Each account has one role",
        ">Role<",
        ">State<",
        ">Active<",
        ">Disable<",
        "Reset password",
        ">New user<",
        "E-mail address",
        ">Password<",
        "Leave empty to generate",
        "Create user",
        ">Customer<",
        "(staff)",
        "Loading users",
    ];
    assert_eq!(english_left(&html, &english), Vec::<String>::new(), "users");

    // Organisations.
    let html = app.page(&admin, "/admin/organisations").await;
    let german = [
        "<h1>Organisationen<",
        "Die Mitarbeiter des Anbieters",
        ">Art<",
        ">Angelegt<",
        ">Mitarbeiter<",
        ">Neue Kundenorganisation<",
        "z. B. Beispiel Fertigung AG",
        "Organisation anlegen",
    ];
    assert_eq!(
        german_missing(&html, &german),
        Vec::<&str>::new(),
        "organisations"
    );
    let english = [
        ">Organisations<",
        "The vendor's staff",
        ">Kind<",
        ">Created<",
        ">Staff<",
        ">Users<",
        "New customer organisation",
        "e.g. Example",
        "Create organisation",
    ];
    assert_eq!(
        english_left(&html, &english),
        Vec::<String>::new(),
        "organisations"
    );

    // The GPU catalog: prices, the table's heads and the add-a-GPU form.
    let html = app.page(&admin, "/admin/gpus").await;
    let german = [
        "<h1>GPU-Katalog<",
        "Preise sehen nur Mitarbeiter",
        "Währung der Preise",
        "Währung speichern",
        ">Quelle<",
        ">Verfügbarkeit<",
        "Preise: je Karte · je GPU-Stunde",
        "Stückpreis von NVIDIA H200 NVL",
        "Preis je GPU-Stunde von NVIDIA H200 NVL",
        ">Setzen<",
        ">geprüft<",
        ">nativ<",
        "Hier hinzugefügte Modelle",
        "Dimensionierungsseite",
        "GPU hinzufügen oder ändern",
        "Speicher, Treiber-GiB",
        "Bandbreite, GB/s",
        "FP4-Tensorkerne",
        "GPU speichern",
    ];
    assert_eq!(german_missing(&html, &german), Vec::<&str>::new(), "GPUs");
    let english = [
        "GPU catalog",
        "Prices are staff-only",
        "Currency of the prices",
        "Save currency",
        ">Source<",
        ">Availability<",
        "per card",
        "Unit price",
        "Price per GPU-hour",
        ">Set<",
        ">reviewed<",
        ">native<",
        ">weight-only<",
        ">none (weight-only)<",
        "Models added here",
        "Add or edit a GPU",
        "Memory, driver",
        "Bandwidth",
        ">FP4 tensor cores<",
        "Save GPU",
        "not stated",
        "guide's supplier",
    ];
    assert_eq!(english_left(&html, &english), Vec::<String>::new(), "GPUs");

    // The pilot form, new and edit.
    let html = app.page(&admin, "/pilots/new").await;
    let german = [
        "<h1>Neuer Pilot<",
        "Kundenorganisation",
        ">Modell<",
        "Anzahl GPUs",
        "GPU-Typ",
        "Serving-Engine",
        "Engine-Version",
        ">Beschreibung<",
        "Planung — ",
        "Pilot anlegen",
        ">Abbrechen<",
    ];
    assert_eq!(
        german_missing(&html, &german),
        Vec::<&str>::new(),
        "new pilot"
    );
    let english = [
        ">New pilot<",
        "Customer organisation",
        ">Model<",
        "GPU count",
        "GPU type",
        "Serving engine",
        "Engine version",
        ">Description<",
        "Planning — ",
        "Create pilot",
        ">Cancel<",
        "e.g. ",
    ];
    assert_eq!(
        english_left(&html, &english),
        Vec::<String>::new(),
        "new pilot"
    );

    let html = app.page(&admin, "/pilots/1/edit").await;
    let german = [" bearbeiten<", "Pilot für ", "Änderungen speichern"];
    assert_eq!(
        german_missing(&html, &german),
        Vec::<&str>::new(),
        "edit pilot"
    );
    let english = [
        ">Edit ",
        " / Edit",
        "Pilot for ",
        "Save changes",
        "GPU count",
        ">Cancel<",
    ];
    assert_eq!(
        english_left(&html, &english),
        Vec::<String>::new(),
        "edit pilot"
    );
}
