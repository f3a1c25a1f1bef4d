package bench;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;

/**
 * A program that drives jsoup, for comparing two releases of it with
 * tracebeat diff (bench/diff-libraries.sh): it parses DOCS generated pages
 * (a table of ROWS rows, links, nested lists, entities, and tags left open
 * as real pages leave them), selects from each, and writes each back out.
 * It prints a checksum of what it found, the same with either release.
 * Arguments: [docs rows], 40 and 300 by default.
 */
public final class Parse {
    public static void main(String[] args) {
        int docs = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        long sum = 0;
        for (int d = 0; d < docs; d++) {
            Document doc = Jsoup.parse(page(d, rows), "https://example.com/");
            Elements links = doc.select("a[href]");
            for (Element a : links) {
                sum += a.absUrl("href").length();
            }
            sum += doc.select("td.price").text().length();
            sum += doc.select("ul > li:nth-child(2n)").size();
            sum += doc.outerHtml().length() % 1009;
        }
        System.out.println("parse: " + docs + " documents, checksum " + sum);
    }

    static String page(int d, int rows) {
        StringBuilder b = new StringBuilder(rows * 160);
        b.append("<!doctype html><html><head><title>Page ").append(d).append("</title>");
        b.append("<meta charset=utf-8><style>td{padding:1px}</style></head><body>");
        b.append("<h1 class=title>Catalogue &amp; prices &mdash; page ").append(d).append("</h1>");
        b.append("<table id=items><thead><tr><th>Item<th>Price<th>Link</thead><tbody>");
        for (int r = 0; r < rows; r++) {
            int n = d * rows + r;
            b.append("<tr class=").append(n % 2 == 0 ? "even" : "odd").append("><td>Item ").append(n);
            b.append("<td class=price>").append(n % 97).append('.').append(n % 10).append(" &euro;");
            b.append("<td><a href=\"/item/").append(n).append("?ref=").append(d).append("\">view</a>");
            if (n % 7 == 0) {
                b.append("<td><p>an open paragraph <b>and <i>nested</b> tags</i>");
            }
        }
        b.append("</tbody></table><ul>");
        for (int i = 0; i < rows / 10; i++) {
            b.append("<li>entry ").append(i).append(" <span title='t").append(i).append("'>x</span>");
        }
        b.append("</ul><div><div><div><a href=../up>up</a></div></div></div></body></html>");
        return b.toString();
    }
}
