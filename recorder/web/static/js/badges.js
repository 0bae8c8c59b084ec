// The players' badges, printed and handed out at registration: one badge per player still
// in, with his name, his starting number and a QR code holding his sign-in address (POST
// …/players/signins). Issuing revokes the badges printed before, so the page issues only
// when asked; the tokens are in this page only.
import { describeProblem, post } from "./api.js";
import { _ } from "./i18n.js";
import { element } from "./dom.js";

const page = document.getElementById("badges-page");
const { tournamentId } = page.dataset;
const status = document.getElementById("badges-status");
const badges = document.getElementById("badges");
const issueButton = document.getElementById("badges-issue");
const printButton = document.getElementById("badges-print");

function badge(signin) {
  const qr = element("img", {
    class: "card-qr",
    alt: _("QR code: the sign-in address of %(name)s", { name: signin.name }),
    src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(signin.qr_svg)}`,
  });
  return element("section", { class: "signin-card player-badge", "data-player": signin.player },
    element("h2", { text: signin.name }),
    element("p", { class: "card-players", text: _("Player %(number)s", { number: signin.player }) }),
    qr,
    element("p", { class: "card-hint", text: _("Scan it to check in for a round, and to confirm or dispute the result of your own game.") }),
  );
}

async function issue() {
  issueButton.disabled = true;
  status.textContent = _("Issuing the badges…");
  try {
    const { data } = await post(`/api/tournaments/${encodeURIComponent(tournamentId)}/players/signins`, {});
    badges.replaceChildren(...data.signins.map(badge));
    status.textContent = "";
    printButton.hidden = !data.signins.length;
  } catch (error) {
    status.textContent = describeProblem(error);
    issueButton.disabled = false;
  }
}

issueButton.addEventListener("click", issue);
printButton.addEventListener("click", () => window.print());
page.dataset.ready = "true"; // nothing to load: the badges are issued when asked
