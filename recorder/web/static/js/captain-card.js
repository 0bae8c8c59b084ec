// A team captain's card, printed and handed to him before the event: his team's names in
// both scripts and a QR code holding his page's address (POST …/teams/{n}/captain-signin).
// Issuing revokes the team's card printed before, so the page issues only when asked; the
// token is in this page only.
import { describeProblem, getJSON, post } from "./api.js";
import { bothNamesText, element } from "./dom.js";
import { _ } from "./i18n.js";

const page = document.getElementById("captain-card-page");
const { tournamentId, team } = page.dataset;
const base = `/api/tournaments/${encodeURIComponent(tournamentId)}`;
const status = document.getElementById("captain-card-status");
const issueButton = document.getElementById("captain-card-issue");
const printButton = document.getElementById("captain-card-print");

function card(t, entered, signin) {
  const name = bothNamesText(entered.name, entered.name_geez);
  const role = _("Team %(number)s: the captain", { number: signin.team });
  const qr = element("img", {
    class: "card-qr",
    alt: _("QR code: the captain's page of %(team)s", { team: name }),
    src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(signin.qr_svg)}`,
  });
  return element("section", { class: "signin-card captain-card", "data-team": signin.team },
    element("h2", { text: name }),
    element("p", { class: "card-players", text: `${t.name} · ${role}` }),
    qr,
    element("p", { class: "card-hint", text: _("Scan it to hand in your team's line-up for the next round, before it is paired.") }),
  );
}

async function issue() {
  issueButton.disabled = true;
  status.textContent = _("Issuing the card…");
  try {
    const { data: t } = await getJSON(base);
    const entered = t.teams.find((e) => String(e.number) === team);
    const { data } = await post(`${base}/teams/${encodeURIComponent(team)}/captain-signin`, {});
    document.getElementById("captain-card").replaceChildren(card(t, entered || { name: "" }, data));
    status.textContent = "";
    printButton.hidden = false;
  } catch (error) {
    status.textContent = describeProblem(error);
    issueButton.disabled = false;
  }
}

issueButton.addEventListener("click", issue);
printButton.addEventListener("click", () => window.print());
page.dataset.ready = "true"; // nothing to load: the card is issued when asked
