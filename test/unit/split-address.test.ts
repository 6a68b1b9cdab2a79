import t from 'tap';
import { splitAddress } from '../../src/listings/split-address.js';

// [address, street, house number]: German, Austrian, Swiss, French and Italian shapes.
const shapes: [string, string, string][] = [
  ['Hauptstraße 12', 'Hauptstraße', '12'],
  ['Hauptstraße 12a', 'Hauptstraße', '12a'],
  ['Hauptstraße 12 a', 'Hauptstraße', '12 a'],
  ['Hauptstr. 12-14', 'Hauptstr.', '12-14'],
  ['Karl-Marx-Allee 33-35a', 'Karl-Marx-Allee', '33-35a'],
  ['Straße des 17. Juni 100', 'Straße des 17. Juni', '100'],
  ['Am Markt 1', 'Am Markt', '1'],
  ['Am Markt', 'Am Markt', ''],
  ['Unter den Linden 77', 'Unter den Linden', '77'],
  ['Q7 12', 'Q7', '12'],
  ['An der Alster 1/3', 'An der Alster', '1/3'],
  ['Mariahilfer Straße 12/3', 'Mariahilfer Straße', '12/3'],
  ['Kärntner Ring 5-7', 'Kärntner Ring', '5-7'],
  ['Landstraßer Hauptstraße 2a/14', 'Landstraßer Hauptstraße', '2a/14'],
  ['Bahnhofstrasse 7', 'Bahnhofstrasse', '7'],
  ['Bahnhofstrasse 7 b', 'Bahnhofstrasse', '7 b'],
  ['Rue du Rhône 48', 'Rue du Rhône', '48'],
  ['Seefeldstrasse 123A', 'Seefeldstrasse', '123A'],
  ['12 Rue de Rivoli', 'Rue de Rivoli', '12'],
  ['12, rue de Rivoli', 'rue de Rivoli', '12'],
  ['15 bis avenue Foch', 'avenue Foch', '15 bis'],
  ['3 ter Boulevard Saint-Michel', 'Boulevard Saint-Michel', '3 ter'],
  ['Avenue de la République 12ter', 'Avenue de la République', '12ter'],
  ['1 Place de la Concorde', 'Place de la Concorde', '1'],
  ['Via Roma 12', 'Via Roma', '12'],
  ['Via Roma, 12', 'Via Roma', '12'],
  ['Via Roma n. 12', 'Via Roma', '12'],
  ['Via Roma nr. 12', 'Via Roma', '12'],
  ['Piazza San Marco 1/B', 'Piazza San Marco', '1/B'],
  ['Corso Vittorio Emanuele II 45', 'Corso Vittorio Emanuele II', '45'],
  ['Via XX Settembre 8', 'Via XX Settembre', '8'],
  ['  Hauptstraße   12  ', 'Hauptstraße', '12'],
  ['Platz 1', 'Platz', '1'],
];

for (const [address, street, number] of shapes) {
  t.same(splitAddress(address), { street, number }, address);
}
t.ok(shapes.length >= 30);
