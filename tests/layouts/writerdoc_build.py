"""Write writerdoc.fodt, a course book on inventory decisions as a word processor would hold it.

    cd tests/layouts && python3 writerdoc_build.py
    soffice --headless --convert-to pdf --outdir . writerdoc.fodt
    python3 writerdoc_key.py            # writes writerdoc-labels.txt and checks it against the PDF

The document is LibreOffice Writer's, not TeX's: Caladea body, headings in bold Carlito numbered by
Writer's outline numbering ("Chapter 2 Reorder Points", "2.3 Safety Stock"), the title in the header
and a page-number field centred in the footer; a title page with no number, a contents page numbered
"i", then pages 1-16.  Statements are typed, as people do in Word: a bold run-in label "Definition
2.1." at the start of a paragraph, one counter per chapter for every kind; some stand in a bordered
paragraph, some in a shaded table of one cell.  Figures (paths drawn in Writer, SVG images in a
caption frame) carry captions "Figure 3: ..." from a sequence field numbered through the book; tables
carry "Table 2: ..." above them; equations are LibreOffice Math objects on a line with a right tab and
a number "(2.1)" from a sequence field numbered by chapter; each chapter ends with a numbered list of
exercises whose labels print "Exercise 2.1.".

Every page is laid out here by hand and begins with a hard page break, so the page of each numbered
thing is known from this file alone: PAGES is the book, page by page.
"""

from __future__ import annotations

import base64
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
TITLE = "Stock, Orders and Service: Course Notes on Inventory Decisions"
FRONT_PDF_PAGES = 2          # the title page (no number) and the contents (printed "i")

# ---------------------------------------------------------------------------------------------------
# The book.  A page is a list of blocks:
#   ("h1", title) ("h2", title) ("p", text) ("proof", text)
#   ("st", kind, text, frame)       frame: "" | "box" (bordered paragraph) | "cell" (shaded one-cell table)
#   ("eq", starmath, width_cm, height_cm)
#   ("figpath", caption, svg_path_d) ("figimg", caption, svg_source)
#   ("table", caption, rows)
#   ("exercises", [texts])
# Statement numbers, equation numbers, figure and table numbers are counted by the generator.
# ---------------------------------------------------------------------------------------------------

SAWTOOTH = ("M 0 0 L 0 300 L 640 300 M 0 40 L 150 260 L 150 40 L 300 260 L 300 40 L 450 260 L 450 40 "
            "L 600 260 M 0 150 L 620 150")
COSTCURVE = ("M 0 0 L 0 300 L 640 300 M 40 20 L 70 90 L 110 150 L 160 195 L 220 225 L 290 240 L 360 244 "
             "L 430 240 L 500 230 L 570 216 L 630 200 M 300 300 L 300 240")


def svg_reorder() -> str:
    return """<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200">
<g fill="none" stroke="black" stroke-width="1.5">
<path d="M 30 10 L 30 180 L 390 180"/>
<path d="M 30 30 L 110 110 L 140 140 L 140 40 L 220 120 L 250 150 L 250 35 L 330 115 L 360 145"/>
<path d="M 30 110 L 385 110" stroke-dasharray="6,4"/>
<path d="M 110 110 L 110 180 M 220 120 L 220 180" stroke-dasharray="2,3"/>
</g>
<g font-family="Carlito" font-size="13">
<text x="36" y="22">stock on hand</text><text x="335" y="196">time</text>
<text x="290" y="104">reorder point</text><text x="112" y="194">order</text><text x="144" y="194">arrival</text>
</g></svg>"""


def svg_review() -> str:
    return """<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200">
<g fill="none" stroke="black" stroke-width="1.5">
<path d="M 30 10 L 30 180 L 390 180"/>
<path d="M 30 25 L 60 60 L 90 80 L 120 105 L 120 25 L 150 45 L 180 90 L 210 120 L 210 25 L 240 70 L 270 85 L 300 130 L 300 25 L 330 50 L 360 95"/>
<path d="M 30 25 L 385 25" stroke-dasharray="6,4"/>
</g>
<g font-family="Carlito" font-size="13">
<text x="300" y="18">order-up-to level</text><text x="335" y="196">time</text>
<text x="110" y="194">review</text><text x="200" y="194">review</text><text x="290" y="194">review</text>
</g></svg>"""


PAGES: list[list[tuple]] = [
    # ---------------- page 1 ----------------
    [("h1", "Stock and Its Costs"),
     ("p", "These notes follow one question through four chapters: how much of an item should a firm keep on "
           "its shelves, and when should it ask its supplier for more? The answers depend on a handful of costs "
           "and on how well the firm can forecast what its customers will take. We start with the simplest "
           "case, in which demand is steady and known, and add uncertainty one step at a time."),
     ("h2", "Why firms hold stock"),
     ("p", "A shop that ordered each unit only when a customer asked for it would keep nothing on hand, but it "
           "would pay for a delivery every time and keep its customers waiting. Holding stock trades money tied "
           "up on the shelf for fewer deliveries and quicker service. The stock that exists only because goods "
           "arrive in batches has a name of its own."),
     ("st", "Definition", "The cycle stock of an item is the part of its inventory that is held because "
            "replenishment arrives in lots larger than the demand of a single period; it falls as units are "
            "sold and jumps back when the next lot arrives.", ""),
     ("p", "Cycle stock is not the only reason to keep goods. Stock held against a forecast that turns out "
           "too low is safety stock, the subject of the second chapter, and goods that are on their way from "
           "the supplier are pipeline stock. Each kind costs money for as long as it exists."),
     ("st", "Definition", "The holding cost rate i is the cost of keeping one unit worth one unit of money in "
            "stock for one year, expressed as a fraction per year. It gathers the interest on the capital, "
            "the rent of the space, insurance, and the losses from damage and obsolescence.", "box"),
     ("p", "With a unit purchase cost c, the cost of holding one unit for a year follows at once:"),
     ("eq", "h = i cdot c", 2.4, 0.55),
     ("p", "A typical rate lies between fifteen and thirty per cent a year, and most of it is the interest that "
           "the firm could have earned by putting its money elsewhere."),
     ],
    # ---------------- page 2 ----------------
    [("p", "Because the rate is a fraction of the value, cheap bulky goods are often undervalued by this rule: "
           "their space costs far more than their interest. Some firms therefore add a charge per cubic metre "
           "to the holding cost of such items."),
     ("st", "Example", "A hardware wholesaler buys a box of wood screws for 8.00 and charges itself 25 per cent "
            "a year for holding stock. One box kept for a whole year costs 0.25 x 8.00 = 2.00, and one box kept "
            "for a single month costs about 0.17.", "cell"),
     ("h2", "Ordering costs"),
     ("p", "Every order, whatever its size, sets off the same chain of work: someone writes the order, the "
           "supplier packs and ships it, a truck is unloaded, the goods are counted and the invoice is paid. "
           "The part of this work that does not depend on the quantity is the fixed cost of an order."),
     ("st", "Definition", "The ordering cost K is the cost incurred each time an order is placed, independent "
            "of the number of units ordered. The annual demand D is the number of units customers take in a "
            "year, assumed here to arrive at a constant rate.", ""),
     ("p", "If each order brings Q units, the firm orders D/Q times a year, and the stock falls from Q to "
           "zero between deliveries, so that on average Q/2 units sit on the shelf. The yearly cost that "
           "depends on Q is then"),
     ("eq", "C(Q) = K {D over Q} + h {Q over 2}", 4.8, 1.0),
     ("p", "Figure 1 shows the stock level over a year when the order quantity is the same each time; the "
           "dashed line marks the average."),
     ("figpath", "Stock on hand under a fixed order quantity: the level falls at the rate of demand and "
                 "jumps by Q at each delivery", SAWTOOTH),
     ],
    # ---------------- page 3 ----------------
    [("p", "The first term of the cost falls as the order grows and the second rises, so somewhere between "
           "them lies a best quantity. Setting the derivative of the cost to zero gives the classical answer."),
     ("st", "Theorem", "Under constant demand D, ordering cost K and holding cost h per unit and year, with no "
            "shortages allowed, the yearly cost C(Q) is smallest at the economic order quantity", "box"),
     ("eq", "Q^{*} = sqrt{{2 K D} over h}", 3.6, 1.3),
     ("proof", "Proof. The cost is convex in Q for Q > 0, and its derivative -KD/Q^2 + h/2 vanishes only "
               "at the value given."),
     ("st", "Corollary", "At the economic order quantity the yearly ordering cost equals the yearly holding "
            "cost, and the total is sqrt(2KDh).", ""),
     ("p", "The corollary gives a quick check on any order quantity in use: if the two cost terms are far "
           "apart, the quantity is far from the best one. Table 1 compares a few order sizes for an item with "
           "D = 1200, K = 50 and h = 3."),
     ("table", "Yearly costs of several order quantities for D = 1200, K = 50, h = 3",
      [["Order quantity Q", "Orders per year", "Ordering cost", "Holding cost", "Total"],
       ["100", "12", "600", "150", "750"],
       ["200", "6", "300", "300", "600"],
       ["300", "4", "200", "450", "650"],
       ["400", "3", "150", "600", "750"]]),
     ("st", "Remark", "The formula counts only costs that change with Q. The purchase price of the year's "
            "demand is paid whatever the order size, so it is left out unless the supplier offers a discount "
            "for larger lots.", ""),
     ],
    # ---------------- page 4 ----------------
    [("h2", "How flat the cost curve is"),
     ("p", "Managers rarely know K and h precisely, and a supplier may only ship full pallets. It would be "
           "worrying if a small error in Q cost a great deal. Fortunately it does not."),
     ("st", "Proposition", "If an order quantity Q = a Q* is used instead of the best one, the yearly cost is "
            "C(Q*) (a + 1/a)/2. An order twice as large as the best one costs only 25 per cent more.", ""),
     ("st", "Example", "A pharmacy computes Q* = 200 boxes of bandages but its supplier ships in cartons of "
            "144. Using 144 gives a = 0.72 and a cost 5.3 per cent above the minimum; using 288 gives a = 1.44 "
            "and 6.7 per cent. The pharmacy orders one carton at a time.", "cell"),
     ("p", "The same flatness explains why rough estimates of the ordering cost are good enough in practice. "
           "What matters far more is whether demand is as steady as the model assumes, the question the "
           "following chapters take up."),
     ("h2", "Exercises"),
     ("exercises", ["A bakery uses 5200 kg of flour a year. An order costs 40 to place and a kilogram costs "
                    "0.60 to hold for a year. Find the economic order quantity and the number of orders a year.",
                    "Show that doubling the annual demand multiplies the economic order quantity by the "
                    "square root of two. What happens to the number of orders?",
                    "Use Table 1 to estimate the yearly cost of ordering 250 units, and compare it with the "
                    "formula of the proposition on this page."]),
     ],
    # ---------------- page 5 ----------------
    [("h1", "Reorder Points"),
     ("p", "The economic order quantity tells a firm how much to order but not when. If deliveries were "
           "instant, the answer would be to order the moment the shelf is empty. In practice a supplier needs "
           "days or weeks, and the order has to go out while there is still stock to cover the wait."),
     ("h2", "Lead time and its demand"),
     ("p", "The time between placing an order and having the goods ready for sale is the lead time. It includes "
           "the supplier's processing, the transport and the receiving at the warehouse."),
     ("st", "Definition", "The lead-time demand X is the total demand for the item during one lead time L. "
            "When daily demand has mean d and the lead time is fixed, its mean is", ""),
     ("eq", "%mu_L = d cdot L", 2.4, 0.55),
     ("p", "If demand were known exactly, ordering when the stock reaches the mean lead-time demand would make "
           "the goods arrive just as the last unit is sold. Demand is rarely so obliging, and the spread of the "
           "lead-time demand matters as much as its mean."),
     ("st", "Lemma", "If daily demands are independent with mean d and standard deviation sigma, the lead-time "
            "demand over a fixed lead time of L days has mean dL and standard deviation sigma times the "
            "square root of L.", ""),
     ("p", "The square root is the heart of the matter: a lead time four times as long makes the uncertainty "
           "only twice as large."),
     ],
    # ---------------- page 6 ----------------
    [("h2", "The reorder point"),
     ("p", "A continuous review system watches the inventory position, the stock on hand plus what is on order "
           "minus what is owed to customers, and places an order of fixed size as soon as the position falls "
           "to a chosen level."),
     ("st", "Definition", "The reorder point r is the inventory position at which a new order is placed. It is "
            "written as the mean lead-time demand plus a safety stock s:", "box"),
     ("eq", "r = %mu_L + s", 2.4, 0.55),
     ("p", "Figure 2 shows such a system at work. The orders go out when the dashed line is crossed, and the "
           "stock left when a delivery arrives varies from cycle to cycle with the demand of the lead time."),
     ("figimg", "A continuous review system: an order goes out when the stock reaches the reorder point "
                "and arrives one lead time later", "reorder"),
     ("p", "Choosing r amounts to choosing s, and the safety stock is a matter of how often the firm is willing "
           "to run out."),
     ],
    # ---------------- page 7 ----------------
    [("h2", "Safety Stock"),
     ("p", "The most common way to set the safety stock is to fix the probability of running out during a "
           "lead time, the cycle service level, and to read the stock from the distribution of lead-time "
           "demand."),
     ("st", "Theorem", "If the lead-time demand is normal with mean dL and standard deviation sigma sqrt(L), "
            "the reorder point that meets a cycle service level alpha uses the safety stock", "box"),
     ("eq", "s = z_{%alpha} %sigma sqrt{L}", 3.0, 0.7),
     ("p", "where z is the standard normal quantile of alpha. Table 2 lists the factor for the service levels "
           "that firms choose most often."),
     ("table", "Safety factors for common cycle service levels",
      [["Cycle service level", "Safety factor z", "Cycles with a stockout"],
       ["90 %", "1.28", "one in ten"],
       ["95 %", "1.64", "one in twenty"],
       ["98 %", "2.05", "one in fifty"],
       ["99 %", "2.33", "one in a hundred"]]),
     ("st", "Example", "A garden centre sells on average 20 bags of compost a day with a standard deviation of "
            "6, and its supplier delivers in 9 days. For a 95 per cent cycle service level the safety stock "
            "is 1.64 x 6 x 3 = 29.5, so the centre reorders when 180 + 30 = 210 bags are left.", "cell"),
     ],
    # ---------------- page 8 ----------------
    [("p", "A cycle service level says nothing about how many units are short when a stockout happens. Firms "
           "that care about the share of demand filled from the shelf use a second measure."),
     ("st", "Proposition", "The fill rate of a reorder point policy with order quantity Q equals one minus the "
            "expected shortage per cycle divided by Q. For the same safety stock it rises with Q, because "
            "larger orders mean fewer chances to run out.", ""),
     ("st", "Remark", "A 95 per cent cycle service level usually gives a fill rate above 99 per cent. Quoting "
            "one measure when the customer means the other is a common source of disputes.", "box"),
     ("st", "Corollary", "With a fill-rate target, the safety stock needed falls as the order quantity grows, "
            "and it may even be negative for items ordered in very large lots.", ""),
     ("h2", "Exercises"),
     ("exercises", ["Daily demand for a spare part has mean 4 and standard deviation 2, and the lead time is "
                    "16 days. Find the reorder point for a 98 per cent cycle service level.",
                    "Explain why the inventory position, and not the stock on hand, is compared with the "
                    "reorder point when several orders can be outstanding at once.",
                    "The garden centre of the example halves its lead time. By how much can it cut its "
                    "safety stock without lowering its service level?"]),
     ],
    # ---------------- page 9 ----------------
    [("h1", "The Single Season"),
     ("p", "Some goods can be ordered only once. A newspaper seller buys the morning's papers before knowing "
           "how many will sell, a fashion retailer orders winter coats months ahead, and a bakery bakes its "
           "bread before the shop opens. What is left at the end of the season is sold off cheaply or thrown "
           "away."),
     ("h2", "The newsvendor problem"),
     ("p", "The seller chooses one quantity q before demand D is seen. If demand exceeds q, sales are lost; "
           "if it falls short, the rest is left over."),
     ("st", "Definition", "The underage cost c_u is the profit lost on each unit of demand that cannot be met; "
            "the overage cost c_o is the loss on each unit left unsold at the end of the season.", ""),
     ("st", "Definition", "The critical ratio of a single-season item is c_u / (c_u + c_o), the share of the "
            "two unit costs that falls on running short.", "cell"),
     ("p", "With the demand distribution F, the expected cost of ordering q units is"),
     ("eq", "G(q) = c_o E[(q - D)^{+}] + c_u E[(D - q)^{+}]", 6.8, 0.6),
     ],
    # ---------------- page 10 ----------------
    [("p", "Each extra unit ordered is worth it as long as the chance of selling it, weighed by the underage "
           "cost, exceeds the chance of being left with it, weighed by the overage cost. This marginal "
           "argument gives the best quantity directly."),
     ("st", "Theorem", "If demand has a continuous distribution F, the expected cost G is convex and the best "
            "order quantity q* satisfies", "box"),
     ("eq", "F(q^{*}) = {c_u} over {c_u + c_o}", 3.6, 1.0),
     ("proof", "Proof. The derivative of G is c_o F(q) - c_u (1 - F(q)), which is increasing in q and vanishes "
               "where F(q) equals the critical ratio."),
     ("p", "Figure 3 shows the expected cost as a function of the order quantity. The curve is flat near its "
           "lowest point and rises steeply on the side of the more expensive mistake."),
     ("figpath", "The expected cost of a single season against the order quantity; the mark on the axis is "
                 "the best quantity", COSTCURVE),
     ],
    # ---------------- page 11 ----------------
    [("h2", "Demand in whole units"),
     ("p", "Many single-season items sell in small numbers, and a continuous distribution is a poor picture of "
           "them. The theorem then holds in a slightly different form."),
     ("st", "Lemma", "If demand takes whole values, the best order quantity is the smallest q for which "
            "F(q) is at least the critical ratio.", ""),
     ("st", "Example", "A florist buys roses for 1.50 and sells them for 4.00 on Valentine's Day; unsold roses "
            "are worth nothing the day after. Then c_u = 2.50, c_o = 1.50 and the critical ratio is 0.625. "
            "With the demand of Table 3, the florist should buy 70 dozen.", "cell"),
     ("table", "Demand for roses on Valentine's Day, in dozens",
      [["Demand", "Probability", "Cumulative F"],
       ["40", "0.10", "0.10"],
       ["50", "0.20", "0.30"],
       ["60", "0.25", "0.55"],
       ["70", "0.25", "0.80"],
       ["80", "0.20", "1.00"]]),
     ("p", "The expected number of roses sold from an order of q is the sum of the smaller of q and each "
           "possible demand, weighted by its probability:"),
     ("eq", "S(q) = sum from{d} min(q, d) cdot p_d", 4.4, 1.1),
     ],
    # ---------------- page 12 ----------------
    [("h2", "Salvage and returns"),
     ("p", "Left-over goods are seldom worth nothing. A publisher takes back unsold copies, an outlet store buys "
           "last season's coats, and day-old bread goes to a discount shop."),
     ("st", "Proposition", "If each unsold unit can be sold for a salvage value v below its cost c, the "
            "overage cost becomes c - v, and the best order quantity rises as v rises.", ""),
     ("st", "Remark", "A buy-back offer from the supplier works in the same way: it lowers the retailer's "
            "overage cost and so leads the retailer to order more, which is why suppliers make such offers.",
      "box"),
     ("h2", "Exercises"),
     ("exercises", ["A kiosk buys a magazine for 2 and sells it for 5; the publisher refunds 1 for each unsold "
                    "copy. Weekly demand is normal with mean 120 and standard deviation 25. How many copies "
                    "should the kiosk buy?",
                    "Show that the expected cost of the florist's order is the same for 60 and 70 dozen when "
                    "the critical ratio is exactly 0.55.",
                    "Redo the florist's example when unsold roses can be sold for 0.50 the next day."]),
     ],
    # ---------------- page 13 ----------------
    [("h1", "Periodic Review"),
     ("p", "Watching every item continuously is easy with a scanner at the till but was not always so, and "
           "many firms still prefer to order on fixed days: a store counts its shelves every Monday, or a "
           "supplier's truck calls once a week. Ordering at fixed intervals is called periodic review."),
     ("h2", "Order-up-to policies"),
     ("p", "At each review the firm looks at its inventory position and orders enough to bring it back to a "
           "fixed level. The order size then varies with the demand of the last period."),
     ("st", "Definition", "An order-up-to policy with review period R and level S places, at every review, an "
            "order of S minus the inventory position. The protection interval of an order is R + L, the time "
            "until the order after it can arrive.", "box"),
     ("p", "An order placed now must cover the demand until the next order arrives, so the level is set from "
           "the demand over the protection interval:"),
     ("eq", "S = d (R + L) + z %sigma sqrt{R + L}", 4.8, 0.7),
     ("st", "Lemma", "Under an order-up-to policy the expected stock on hand just before a delivery is the "
            "safety stock, and the average stock over a period is about the safety stock plus dR/2.", ""),
     ],
    # ---------------- page 14 ----------------
    [("p", "The level S plays the part that the reorder point played under continuous review. The two systems "
           "differ in what they must protect against, and the difference has a price."),
     ("st", "Theorem", "For the same service level, the safety stock of an order-up-to policy with review "
            "period R exceeds that of a continuous review policy with the same lead time, the ratio being the "
            "square root of (R + L)/L.", ""),
     ("st", "Example", "A stationery shop reviews its paper every 7 days and its supplier delivers in 3 days; "
            "daily demand has mean 30 and standard deviation 10. At a 95 per cent service level, "
            "S = 30 x 10 + 1.64 x 10 x 3.16 = 352 reams.", "cell"),
     ("p", "Figure 4 shows how the stock moves under such a policy. Every order brings the position back to "
           "the same level, but the stock reached after each delivery differs."),
     ("figimg", "An order-up-to policy: at each review the inventory position is raised to the level S",
      "review"),
     ],
    # ---------------- page 15 ----------------
    [("h2", "Choosing the review period"),
     ("p", "A longer review period saves the work of counting and ordering but needs more safety stock. The "
           "trade-off resembles the one behind the economic order quantity."),
     ("st", "Proposition", "If each review and order costs K, the review period that approximately minimises "
            "the yearly cost is the economic order quantity divided by the annual demand:", ""),
     ("eq", "R^{*} approx {Q^{*}} over D", 2.8, 1.0),
     ("table", "Review periods for three items of a stationery shop",
      [["Item", "Annual demand", "Q*", "R* in weeks", "Period chosen"],
       ["Copy paper", "10 950", "900", "4.3", "4 weeks"],
       ["Envelopes", "2 600", "420", "8.4", "8 weeks"],
       ["Toner", "310", "60", "10.1", "10 weeks"]]),
     ("st", "Corollary", "Items bought from the same supplier are best reviewed on a common cycle whose length "
            "is a whole number of weeks, even when each item's own best period differs.", ""),
     ],
    # ---------------- page 16 ----------------
    [("p", "Joint ordering also pools the fixed cost of a delivery over several items, which often matters more "
           "than the stock each item carries."),
     ("st", "Remark", "When demand is not normal, for example for slow movers that sell a few units a month, "
            "the level S should be read from a Poisson or negative binomial distribution instead.", "box"),
     ("st", "Example", "A shop that reviews toner every 10 weeks sells on average 0.6 cartridges a week. The "
            "demand over the 11 weeks of protection is Poisson with mean 6.6, and a 95 per cent service "
            "level needs S = 11.", ""),
     ("h2", "Exercises"),
     ("exercises", ["The stationery shop moves to a review every 14 days. Recompute its order-up-to level for "
                    "paper and compare the safety stocks.",
                    "Show that under an order-up-to policy the order placed at a review equals the demand "
                    "since the previous review.",
                    "Use Table 4 to choose one common review period for the three items, and explain what "
                    "the shop gives up by choosing it."]),
     ],
]

CHAPTERS = ["Stock and Its Costs", "Reorder Points", "The Single Season", "Periodic Review"]

# ---------------------------------------------------------------------------------------------------


def numbered_items():
    """Walk PAGES as Writer will number them: [(kind, number, printed page, pdf page, block index)]."""
    out, chapter, figure, table = [], 0, 0, 0
    counters = {}
    for page_index, page in enumerate(PAGES):
        printed, pdf = page_index + 1, page_index + 1 + FRONT_PDF_PAGES
        for bi, block in enumerate(page):
            tag = block[0]
            if tag == "h1":
                chapter += 1
                counters = {"st": 0, "eq": 0}
            elif tag == "st":
                counters["st"] += 1
                out.append((block[1].lower(), f"{chapter}.{counters['st']}", printed, pdf, (page_index, bi)))
            elif tag == "eq":
                counters["eq"] += 1
                out.append(("equation", f"{chapter}.{counters['eq']}", printed, pdf, (page_index, bi)))
            elif tag in ("figpath", "figimg"):
                figure += 1
                out.append(("figure", str(figure), printed, pdf, (page_index, bi)))
            elif tag == "table":
                table += 1
                out.append(("table", str(table), printed, pdf, (page_index, bi)))
            elif tag == "exercises":
                for n in range(len(block[1])):
                    out.append(("exercise", f"{chapter}.{n + 1}", printed, pdf, (page_index, bi)))
    return out


def contents_entries():
    """(level, number, title, printed page) of every heading, for the contents page."""
    out, chapter, section = [], 0, 0
    for page_index, page in enumerate(PAGES):
        for block in page:
            if block[0] == "h1":
                chapter, section = chapter + 1, 0
                out.append((1, f"Chapter {chapter}", block[1], page_index + 1))
            elif block[0] == "h2":
                section += 1
                out.append((2, f"{chapter}.{section}", block[1], page_index + 1))
    return out


# ---------------------------------------------------------------------------------------------------
# ODF
# ---------------------------------------------------------------------------------------------------

NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
      'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
      'xmlns:xlink="http://www.w3.org/1999/xlink" '
      'xmlns:dc="http://purl.org/dc/elements/1.1/" '
      'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
      'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
      'xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0" '
      'office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text"')

FONTS = """<office:font-face-decls>
<style:font-face style:name="Caladea" svg:font-family="Caladea" style:font-family-generic="roman" style:font-pitch="variable"/>
<style:font-face style:name="Carlito" svg:font-family="Carlito" style:font-family-generic="swiss" style:font-pitch="variable"/>
</office:font-face-decls>"""

STYLES = """<office:styles>
<style:default-style style:family="paragraph">
 <style:paragraph-properties fo:hyphenation-ladder-count="no-limit" style:writing-mode="page"/>
 <style:text-properties style:font-name="Caladea" fo:font-size="11pt" fo:language="en" fo:country="GB"/>
</style:default-style>
<style:style style:name="Standard" style:family="paragraph" style:class="text">
 <style:text-properties style:font-name="Caladea" fo:font-size="11pt"/>
</style:style>
<style:style style:name="Text_20_body" style:display-name="Text body" style:family="paragraph" style:parent-style-name="Standard" style:class="text">
 <style:paragraph-properties fo:margin-top="0cm" fo:margin-bottom="0.21cm" fo:line-height="115%" fo:text-align="justify"/>
</style:style>
<style:style style:name="Heading" style:family="paragraph" style:parent-style-name="Standard" style:next-style-name="Text_20_body" style:class="text">
 <style:paragraph-properties fo:margin-top="0.42cm" fo:margin-bottom="0.21cm" fo:keep-with-next="always"/>
 <style:text-properties style:font-name="Carlito" fo:font-weight="bold"/>
</style:style>
<style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Heading" style:next-style-name="Text_20_body" style:default-outline-level="1" style:class="text">
 <style:paragraph-properties fo:margin-top="0.2cm" fo:margin-bottom="0.6cm" fo:break-before="page"/>
 <style:text-properties fo:font-size="20pt" fo:color="#1f3864"/>
</style:style>
<style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph" style:parent-style-name="Heading" style:next-style-name="Text_20_body" style:default-outline-level="2" style:class="text">
 <style:paragraph-properties fo:margin-top="0.45cm" fo:margin-bottom="0.2cm"/>
 <style:text-properties fo:font-size="14pt" fo:color="#1f3864"/>
</style:style>
<style:style style:name="Title" style:family="paragraph" style:parent-style-name="Heading" style:class="chapter">
 <style:paragraph-properties fo:text-align="center" fo:margin-top="6cm" fo:margin-bottom="1cm"/>
 <style:text-properties fo:font-size="26pt"/>
</style:style>
<style:style style:name="Subtitle" style:family="paragraph" style:parent-style-name="Standard" style:class="chapter">
 <style:paragraph-properties fo:text-align="center" fo:margin-top="0.5cm" fo:margin-bottom="0.5cm"/>
 <style:text-properties fo:font-size="14pt"/>
</style:style>
<style:style style:name="Header" style:family="paragraph" style:parent-style-name="Standard" style:class="extra">
 <style:paragraph-properties fo:text-align="center"/>
 <style:text-properties fo:font-size="9pt" fo:font-style="italic"/>
</style:style>
<style:style style:name="Footer" style:family="paragraph" style:parent-style-name="Standard" style:class="extra">
 <style:paragraph-properties fo:text-align="center"/>
 <style:text-properties fo:font-size="10pt"/>
</style:style>
<style:style style:name="Caption" style:family="paragraph" style:parent-style-name="Standard" style:class="extra">
 <style:paragraph-properties fo:margin-top="0.21cm" fo:margin-bottom="0.21cm" fo:text-align="center"/>
 <style:text-properties fo:font-size="10pt" fo:font-style="italic"/>
</style:style>
<style:style style:name="Figure" style:family="paragraph" style:parent-style-name="Caption" style:class="extra"/>
<style:style style:name="Table" style:family="paragraph" style:parent-style-name="Caption" style:class="extra">
 <style:paragraph-properties fo:keep-with-next="always"/>
</style:style>
<style:style style:name="Table_20_Contents" style:display-name="Table Contents" style:family="paragraph" style:parent-style-name="Standard" style:class="extra">
 <style:text-properties fo:font-size="10pt"/>
</style:style>
<style:style style:name="Table_20_Heading" style:display-name="Table Heading" style:family="paragraph" style:parent-style-name="Table_20_Contents" style:class="extra">
 <style:paragraph-properties fo:text-align="center"/>
 <style:text-properties fo:font-weight="bold"/>
</style:style>
<style:style style:name="Formula" style:family="paragraph" style:parent-style-name="Text_20_body" style:class="extra">
 <style:paragraph-properties fo:text-align="start" fo:margin-top="0.1cm" fo:margin-bottom="0.25cm">
  <style:tab-stops>
   <style:tab-stop style:position="8cm" style:type="center"/>
   <style:tab-stop style:position="16cm" style:type="right"/>
  </style:tab-stops>
 </style:paragraph-properties>
</style:style>
<style:style style:name="Boxed" style:family="paragraph" style:parent-style-name="Text_20_body">
 <style:paragraph-properties fo:margin-top="0.15cm" fo:margin-bottom="0.3cm" fo:padding="0.2cm" fo:border="0.5pt solid #000000"/>
</style:style>
<style:style style:name="Contents_20_Heading" style:display-name="Contents Heading" style:family="paragraph" style:parent-style-name="Heading" style:class="index">
 <style:paragraph-properties fo:margin-bottom="0.6cm"/>
 <style:text-properties fo:font-size="20pt" fo:color="#1f3864"/>
</style:style>
<style:style style:name="Contents_20_1" style:display-name="Contents 1" style:family="paragraph" style:parent-style-name="Standard" style:class="index">
 <style:paragraph-properties fo:margin-top="0.3cm">
  <style:tab-stops><style:tab-stop style:position="16cm" style:type="right" style:leader-style="dotted" style:leader-text="."/></style:tab-stops>
 </style:paragraph-properties>
 <style:text-properties fo:font-weight="bold"/>
</style:style>
<style:style style:name="Contents_20_2" style:display-name="Contents 2" style:family="paragraph" style:parent-style-name="Standard" style:class="index">
 <style:paragraph-properties fo:margin-left="0.5cm">
  <style:tab-stops><style:tab-stop style:position="15.5cm" style:type="right" style:leader-style="dotted" style:leader-text="."/></style:tab-stops>
 </style:paragraph-properties>
</style:style>
<style:style style:name="List_20_Paragraph" style:display-name="List Paragraph" style:family="paragraph" style:parent-style-name="Text_20_body"/>
<style:style style:name="Strong_20_Emphasis" style:display-name="Strong Emphasis" style:family="text">
 <style:text-properties fo:font-weight="bold"/>
</style:style>
<style:style style:name="Emphasis" style:family="text">
 <style:text-properties fo:font-style="italic"/>
</style:style>
<style:style style:name="Frame" style:family="graphic">
 <style:graphic-properties text:anchor-type="as-char" svg:y="0cm" style:vertical-pos="top" style:vertical-rel="baseline" fo:border="none" fo:padding="0cm"/>
</style:style>
<style:style style:name="Graphics" style:family="graphic">
 <style:graphic-properties text:anchor-type="as-char" svg:y="0cm" style:vertical-pos="top" style:vertical-rel="baseline"/>
</style:style>
<style:style style:name="Formula_obj" style:family="graphic">
 <style:graphic-properties text:anchor-type="as-char" svg:y="0cm" style:vertical-pos="middle" style:vertical-rel="text" fo:margin-left="0.1cm" fo:margin-right="0.1cm"/>
</style:style>
<style:style style:name="Drawing" style:family="graphic">
 <style:graphic-properties svg:stroke-color="#000000" svg:stroke-width="0.03cm" draw:fill="none" text:anchor-type="as-char" style:vertical-pos="top" style:vertical-rel="baseline"/>
</style:style>
<text:outline-style style:name="Outline">
 <text:outline-level-style text:level="1" style:num-prefix="Chapter " style:num-format="1">
  <style:list-level-properties text:list-level-position-and-space-mode="label-alignment">
   <style:list-level-label-alignment text:label-followed-by="space"/>
  </style:list-level-properties>
 </text:outline-level-style>
 <text:outline-level-style text:level="2" style:num-format="1" text:display-levels="2">
  <style:list-level-properties text:list-level-position-and-space-mode="label-alignment">
   <style:list-level-label-alignment text:label-followed-by="space"/>
  </style:list-level-properties>
 </text:outline-level-style>
""" + "".join(f""" <text:outline-level-style text:level="{n}" style:num-format="">
  <style:list-level-properties text:list-level-position-and-space-mode="label-alignment">
   <style:list-level-label-alignment text:label-followed-by="listtab"/>
  </style:list-level-properties>
 </text:outline-level-style>
""" for n in range(3, 11)) + """</text:outline-style>
""" + "".join(f"""<text:list-style style:name="Exercises_{c}">
 <text:list-level-style-number text:level="1" style:num-prefix="Exercise {c}." style:num-suffix="." style:num-format="1">
  <style:list-level-properties text:list-level-position-and-space-mode="label-alignment">
   <style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="2.4cm" fo:text-indent="-2.4cm" fo:margin-left="2.4cm"/>
  </style:list-level-properties>
  <style:text-properties fo:font-weight="bold"/>
 </text:list-level-style-number>
</text:list-style>
""" for c in range(1, len(CHAPTERS) + 1)) + """</office:styles>"""

PAGE_LAYOUT = """<style:page-layout style:name="pm{n}">
 <style:page-layout-properties fo:page-width="21.001cm" fo:page-height="29.7cm" style:num-format="{fmt}" style:print-orientation="portrait" fo:margin-top="1.6cm" fo:margin-bottom="1.5cm" fo:margin-left="2.5cm" fo:margin-right="2.5cm" style:writing-mode="lr-tb"/>
 <style:header-style><style:header-footer-properties fo:min-height="0cm" fo:margin-bottom="0.8cm"/></style:header-style>
 <style:footer-style><style:header-footer-properties fo:min-height="0cm" fo:margin-top="0.8cm"/></style:footer-style>
</style:page-layout>"""

AUTOMATIC_STYLES = f"""<office:automatic-styles>
{PAGE_LAYOUT.format(n=1, fmt="1")}
{PAGE_LAYOUT.format(n=2, fmt="i")}
{PAGE_LAYOUT.format(n=3, fmt="1")}
<style:style style:name="P_front" style:family="paragraph" style:parent-style-name="Contents_20_Heading" style:master-page-name="Front">
 <style:paragraph-properties style:page-number="1" fo:break-before="page"/>
</style:style>
<style:style style:name="P_first" style:family="paragraph" style:parent-style-name="Heading_20_1" style:master-page-name="Standard">
 <style:paragraph-properties style:page-number="1"/>
</style:style>
<style:style style:name="P_body_break" style:family="paragraph" style:parent-style-name="Text_20_body">
 <style:paragraph-properties fo:break-before="page"/>
</style:style>
<style:style style:name="P_h2_break" style:family="paragraph" style:parent-style-name="Heading_20_2">
 <style:paragraph-properties fo:break-before="page"/>
</style:style>
<style:style style:name="P_center" style:family="paragraph" style:parent-style-name="Standard">
 <style:paragraph-properties fo:text-align="center" fo:margin-top="0.3cm"/>
</style:style>
<style:style style:name="Tbl" style:family="table">
 <style:table-properties style:width="15cm" table:align="center" fo:margin-top="0.1cm" fo:margin-bottom="0.35cm"/>
</style:style>
<style:style style:name="TblCell" style:family="table-cell">
 <style:table-cell-properties fo:padding="0.08cm" fo:border="0.5pt solid #000000"/>
</style:style>
<style:style style:name="TblHeadCell" style:family="table-cell">
 <style:table-cell-properties fo:padding="0.08cm" fo:border="0.5pt solid #000000" fo:background-color="#d9e2f3"/>
</style:style>
<style:style style:name="Shade" style:family="table">
 <style:table-properties style:width="16cm" table:align="margins" fo:margin-top="0.1cm" fo:margin-bottom="0.3cm"/>
</style:style>
<style:style style:name="ShadeCell" style:family="table-cell">
 <style:table-cell-properties fo:padding="0.2cm" fo:background-color="#e7e6e6" fo:border="0.5pt solid #a6a6a6"/>
</style:style>
</office:automatic-styles>"""

MASTER = f"""<office:master-styles>
<style:master-page style:name="Title_20_Page" style:display-name="Title Page" style:page-layout-name="pm1" style:next-style-name="Front"/>
<style:master-page style:name="Front" style:page-layout-name="pm2">
 <style:header><text:p text:style-name="Header">{escape(TITLE)}</text:p></style:header>
 <style:footer><text:p text:style-name="Footer"><text:page-number text:select-page="current">i</text:page-number></text:p></style:footer>
</style:master-page>
<style:master-page style:name="Standard" style:page-layout-name="pm3">
 <style:header><text:p text:style-name="Header">{escape(TITLE)}</text:p></style:header>
 <style:footer><text:p text:style-name="Footer"><text:page-number text:select-page="current">1</text:page-number></text:p></style:footer>
</style:master-page>
</office:master-styles>"""


HEADER = """<!-- writerdoc.fodt: a course book on inventory decisions in LibreOffice Writer (flat ODF), for bookrag's
     tests: Caladea body, bold Carlito headings from Writer's outline numbering ("Chapter 2 Reorder
     Points", "2.3 Safety Stock"), the title in the header, a page-number field centred in the footer, a
     title page with no number and a contents page "i"; typed bold run-in labels "Definition 2.1." (some
     in a bordered paragraph, some in a shaded one-cell table), figures with "Figure 3:" caption fields
     numbered through, tables captioned above, LibreOffice Math formulas numbered "(2.1)" at a right
     tab, exercises as a numbered list "Exercise 2.1.".  Generated by writerdoc_build.py, whose
     docstring says how to rebuild the PDF and the key (writerdoc_key.py). -->"""


def bold(s: str) -> str:
    return f'<text:span text:style-name="Strong_20_Emphasis">{escape(s)}</text:span>'


class Writer:
    def __init__(self):
        self.out: list[str] = []
        self.chapter = 0
        self.st = 0
        self.eq = 0
        self.fig = 0
        self.tab = 0
        self.objects = 0

    def obj(self) -> int:
        self.objects += 1
        return self.objects

    def para(self, style: str, inner: str) -> None:
        self.out.append(f'<text:p text:style-name="{style}">{inner}</text:p>')

    def block(self, block: tuple, first_on_page: bool, first_in_body: bool) -> None:
        tag = block[0]
        body = "P_body_break" if first_on_page else "Text_20_body"
        if tag == "h1":
            self.chapter += 1
            self.st = self.eq = 0
            style = "P_first" if first_in_body else "Heading_20_1"
            self.out.append(f'<text:h text:style-name="{style}" text:outline-level="1">{escape(block[1])}</text:h>')
        elif tag == "h2":
            style = "P_h2_break" if first_on_page else "Heading_20_2"
            self.out.append(f'<text:h text:style-name="{style}" text:outline-level="2">{escape(block[1])}</text:h>')
        elif tag == "p":
            self.para(body, escape(block[1]))
        elif tag == "proof":
            head, rest = block[1].split(" ", 1)
            self.para(body, f'<text:span text:style-name="Emphasis">{escape(head)}</text:span> {escape(rest)}')
        elif tag == "st":
            assert not first_on_page or block[3] != "cell"
            _, kind, text, frame = block
            self.st += 1
            inner = f"{bold(f'{kind} {self.chapter}.{self.st}.')} {escape(text)}"
            if frame == "box":
                self.para("Boxed", inner)
            elif frame == "cell":
                self.out.append('<table:table table:name="Box{0}" table:style-name="Shade">'
                                '<table:table-column/><table:table-row><table:table-cell table:style-name="ShadeCell" '
                                'office:value-type="string">'.format(self.obj()))
                self.para("Text_20_body", inner)
                self.out.append("</table:table-cell></table:table-row></table:table>")
            else:
                self.para(body, inner)
        elif tag == "eq":
            _, starmath, w, h = block
            self.eq += 1
            n = self.obj()
            formula = (f'<draw:frame draw:style-name="Formula_obj" draw:name="Object{n}" text:anchor-type="as-char" '
                       f'svg:width="{w}cm" svg:height="{h}cm" draw:z-index="{n}"><draw:object>'
                       f'<math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow/>'
                       f'<annotation encoding="StarMath 5.0">{escape(starmath)}</annotation></semantics></math>'
                       f'</draw:object></draw:frame>')
            # Writer shows the chapter ("2.") itself (the declaration's outline level 1) before the stored value
            number = (f'(<text:sequence text:ref-name="refEquation{self.eq}_{self.chapter}" text:name="Equation" '
                      f'text:formula="ooow:Equation+1" style:num-format="1">{self.eq}</text:sequence>)')
            self.para("Formula", f"<text:tab/>{formula}<text:tab/>{number}")
        elif tag in ("figpath", "figimg"):
            self.fig += 1
            n = self.obj()
            if tag == "figpath":
                drawing = (f'<draw:path draw:style-name="Drawing" draw:name="Drawing{n}" text:anchor-type="as-char" '
                           f'svg:width="10cm" svg:height="4.7cm" svg:viewBox="0 0 640 300" svg:d="{block[2]}"/>')
                self.para("P_center", drawing)
            else:
                svg = svg_reorder() if block[2] == "reorder" else svg_review()
                data = base64.b64encode(svg.encode()).decode()
                image = (f'<draw:frame draw:style-name="Graphics" draw:name="Image{n}" text:anchor-type="as-char" '
                         f'svg:width="11cm" svg:height="5.5cm" draw:z-index="{n}"><draw:image draw:mime-type="image/svg+xml">'
                         f'<office:binary-data>{data}</office:binary-data></draw:image></draw:frame>')
                self.para("P_center", image)
            self.para("Figure", f'Figure <text:sequence text:ref-name="refFigure{self.fig - 1}" text:name="Figure" '
                                f'text:formula="ooow:Figure+1" style:num-format="1">{self.fig}</text:sequence>: '
                                f'{escape(block[1])}')
        elif tag == "table":
            self.tab += 1
            _, caption, rows = block
            self.para("Table", f'Table <text:sequence text:ref-name="refTable{self.tab - 1}" text:name="Table" '
                               f'text:formula="ooow:Table+1" style:num-format="1">{self.tab}</text:sequence>: '
                               f'{escape(caption)}')
            t = [f'<table:table table:name="Table{self.tab}" table:style-name="Tbl">'
                 f'<table:table-column table:number-columns-repeated="{len(rows[0])}"/>']
            for r, row in enumerate(rows):
                t.append("<table:table-row>")
                for cell in row:
                    cs, ps = ("TblHeadCell", "Table_20_Heading") if r == 0 else ("TblCell", "Table_20_Contents")
                    t.append(f'<table:table-cell table:style-name="{cs}" office:value-type="string">'
                             f'<text:p text:style-name="{ps}">{escape(cell)}</text:p></table:table-cell>')
                t.append("</table:table-row>")
            t.append("</table:table>")
            self.out.append("".join(t))
        elif tag == "exercises":
            items = "".join(f'<text:list-item><text:p text:style-name="List_20_Paragraph">{escape(x)}</text:p>'
                            f'</text:list-item>' for x in block[1])
            self.out.append(f'<text:list text:style-name="Exercises_{self.chapter}">{items}</text:list>')
        else:
            raise ValueError(tag)


def contents_xml() -> str:
    entries = []
    for level, number, title, page in contents_entries():
        entries.append(f'<text:p text:style-name="Contents_20_{level}">{escape(number)} {escape(title)}'
                       f'<text:tab/>{page}</text:p>')
    return ('<text:table-of-content text:style-name="Sect1" text:protected="true" text:name="Table of Contents1">'
            '<text:table-of-content-source text:outline-level="2"><text:index-title-template text:style-name='
            '"Contents_20_Heading">Contents</text:index-title-template></text:table-of-content-source>'
            '<text:index-body><text:index-title text:style-name="Sect1" text:name="Table of Contents1_Head">'
            '<text:p text:style-name="P_front">Contents</text:p></text:index-title>'
            + "".join(entries) + "</text:index-body></text:table-of-content>")


def document() -> str:
    w = Writer()
    w.out.append('<text:p text:style-name="Title">Stock, Orders and Service</text:p>')
    w.out.append('<text:p text:style-name="Subtitle">Course Notes on Inventory Decisions</text:p>')
    w.out.append('<text:p text:style-name="Subtitle">Operations Management, second year</text:p>')
    w.out.append('<text:p text:style-name="Subtitle">Department of Business Studies, Autumn Term</text:p>')
    w.out.append(contents_xml())
    for page_index, page in enumerate(PAGES):
        for bi, block in enumerate(page):
            w.block(block, first_on_page=(bi == 0 and block[0] != "h1"), first_in_body=(page_index == 0 and bi == 0))
    decls = ('<text:sequence-decls>'
             '<text:sequence-decl text:display-outline-level="0" text:name="Illustration"/>'
             '<text:sequence-decl text:display-outline-level="0" text:name="Table"/>'
             '<text:sequence-decl text:display-outline-level="0" text:name="Text"/>'
             '<text:sequence-decl text:display-outline-level="0" text:name="Drawing"/>'
             '<text:sequence-decl text:display-outline-level="0" text:name="Figure"/>'
             '<text:sequence-decl text:display-outline-level="1" text:separation-character="." text:name="Equation"/>'
             '</text:sequence-decls>')
    meta = (f'<office:meta><dc:title>{escape(TITLE)}</dc:title>'
            '<meta:generator>writerdoc_build.py (bookrag tests)</meta:generator></office:meta>')
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n{HEADER}\n<office:document {NS}>\n{meta}\n{FONTS}\n{STYLES}\n'
            f'{AUTOMATIC_STYLES}\n{MASTER}\n<office:body><office:text>{decls}\n'
            + "\n".join(w.out) + "\n</office:text></office:body></office:document>\n")


def main() -> None:
    # the title page takes the master page "Title Page": its first paragraph names it
    xml = document().replace('<text:p text:style-name="Title">', '<text:p text:style-name="P_title">', 1)
    xml = xml.replace("</office:automatic-styles>",
                      '<style:style style:name="P_title" style:family="paragraph" style:parent-style-name="Title" '
                      'style:master-page-name="Title_20_Page"/>\n</office:automatic-styles>', 1)
    (HERE / "writerdoc.fodt").write_text(xml)
    print(f"writerdoc.fodt: {len(PAGES)} numbered pages, {len(numbered_items())} numbered things")


if __name__ == "__main__":
    main()
