// A round's sign-in cards, printed and handed out with the recording tablets: one card per
// board still to be played, with its board, its players and a QR code holding the board's
// sign-in address (POST …/rounds/{r}/signins). Issuing revokes the cards printed before for
// the same boards, so the page issues only when asked; the tokens are in this page only.
import { describeProblem, post } from "./api.js";
import { _ } from "./i18n.js";
import { element } from "./dom.js";

const page = document.getElementById("cards-page");
const { tournamentId, round } = page.dataset;
const status = document.getElementById("cards-status");
const cards = document.getElementById("cards");
const issueButton = document.getElementById("cards-issue");
const printButton = document.getElementById("cards-print");

function card(signin) {
  const qr = element("img", {
    class: "card-qr",
    alt: _("QR code: the sign-in address of board %(board)s", { board: signin.board }),
    src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(signin.qr_svg)}`,
  });
  return element("section", { class: "signin-card" },
    element("h2", { text: _("Board %(board)s · round %(round)s", { board: signin.board, round: signin.round }) }),
    element("p", { class: "card-players", text: _("%(south)s (South) against %(north)s (North)", signin) }),
    qr,
    element("p", { class: "card-hint", text: _("Scan it with the recording tablet: it signs in to record this board's game, and nothing else.") }),
  );
}

async function issue() {
  issueButton.disabled = true;
  status.textContent = _("Issuing the sign-ins…");
  try {
    const url = `/api/tournaments/${encodeURIComponent(tournamentId)}/rounds/${encodeURIComponent(round)}/signins`;
    const { data } = await post(url, {});
    cards.replaceChildren(...data.signins.map(card));
    status.textContent = data.signins.length ? "" : _("Every board of this round has its result: no card is needed.");
    printButton.hidden = !data.signins.length;
  } catch (error) {
    status.textContent = describeProblem(error);
    issueButton.disabled = false;
  }
}

issueButton.addEventListener("click", issue);
printButton.addEventListener("click", () => window.print());
