/**
 * Swiss postcodes → canton and coordinates, shipped with the app (no outside service at run time).
 *
 * This is an APPROXIMATION TO THE POSTAL AREA, not a geocoder: an exact entry (or range) for the
 * larger towns, else the two-digit postcode area (10–96; Swiss postcodes end at 96xx) with the
 * canton most of its postcodes lie in and the coordinates of the area's main town. A postcode at
 * the edge of an area may lie in a neighbouring canton (e.g. 3186 Düdingen FR in the Bern area,
 * 8750 Glarus GL in the Meilen area: those have their own entries; others may not). Coordinates are
 * WGS 84 degrees, good to a few kilometres — enough for a map link's neighbourhood and the region
 * filter, not for routing. Liechtenstein (9485–9498) has coordinates but no canton.
 *
 * Add exact entries where the approximation is not good enough; `lookupPostcode` prefers them.
 */

export type Canton =
  | 'AG'
  | 'AI'
  | 'AR'
  | 'BE'
  | 'BL'
  | 'BS'
  | 'FR'
  | 'GE'
  | 'GL'
  | 'GR'
  | 'JU'
  | 'LU'
  | 'NE'
  | 'NW'
  | 'OW'
  | 'SG'
  | 'SH'
  | 'SO'
  | 'SZ'
  | 'TG'
  | 'TI'
  | 'UR'
  | 'VD'
  | 'VS'
  | 'ZG'
  | 'ZH';

export interface PostcodePlace {
  /** null outside Switzerland (Liechtenstein). */
  canton: Canton | null;
  latitude: number;
  longitude: number;
  /** The town whose coordinates these are. */
  place: string;
  /** How the postcode was found: its own entry or range, or its two-digit area. */
  precision: 'town' | 'area';
}

type Entry = [canton: Canton | null, latitude: number, longitude: number, place: string];

/** Two-digit postcode areas: the canton of most of the area and its main town. */
const AREAS: Record<number, Entry> = {
  10: ['VD', 46.5197, 6.6323, 'Lausanne'],
  11: ['VD', 46.5113, 6.4985, 'Morges'],
  12: ['GE', 46.2044, 6.1432, 'Genève'],
  13: ['VD', 46.7249, 6.5325, 'Orbe'],
  14: ['VD', 46.7785, 6.6412, 'Yverdon-les-Bains'],
  15: ['VD', 46.822, 6.9388, 'Payerne'],
  16: ['FR', 46.6193, 7.0577, 'Bulle'],
  17: ['FR', 46.8065, 7.162, 'Fribourg'],
  18: ['VD', 46.4628, 6.8419, 'Vevey'],
  19: ['VS', 46.2331, 7.3606, 'Sion'],
  20: ['NE', 46.99, 6.9293, 'Neuchâtel'],
  21: ['NE', 46.9029, 6.5825, 'Fleurier'],
  22: ['NE', 47.0153, 6.8519, 'Les Geneveys-sur-Coffrane'],
  23: ['NE', 47.1035, 6.8328, 'La Chaux-de-Fonds'],
  24: ['NE', 47.0563, 6.7491, 'Le Locle'],
  25: ['BE', 47.1368, 7.2468, 'Biel/Bienne'],
  26: ['BE', 47.1524, 6.9976, 'Saint-Imier'],
  27: ['BE', 47.22, 7.1976, 'Tavannes'],
  28: ['JU', 47.3649, 7.3445, 'Delémont'],
  29: ['JU', 47.4153, 7.0758, 'Porrentruy'],
  30: ['BE', 46.948, 7.4474, 'Bern'],
  31: ['BE', 46.8727, 7.5612, 'Münsingen'],
  32: ['BE', 47.0742, 7.3068, 'Lyss'],
  33: ['BE', 47.0165, 7.4986, 'Urtenen-Schönbühl'],
  34: ['BE', 47.0559, 7.6279, 'Burgdorf'],
  35: ['BE', 46.9393, 7.7869, 'Langnau im Emmental'],
  36: ['BE', 46.758, 7.628, 'Thun'],
  37: ['BE', 46.6866, 7.68, 'Spiez'],
  38: ['BE', 46.6863, 7.8632, 'Interlaken'],
  39: ['VS', 46.3159, 7.9876, 'Brig'],
  40: ['BS', 47.5596, 7.5886, 'Basel'],
  41: ['BL', 47.5214, 7.6939, 'Pratteln'],
  42: ['BL', 47.4219, 7.5023, 'Laufen'],
  43: ['AG', 47.5546, 7.7944, 'Rheinfelden'],
  44: ['BL', 47.4846, 7.7343, 'Liestal'],
  45: ['SO', 47.2088, 7.5323, 'Solothurn'],
  46: ['SO', 47.3499, 7.9033, 'Olten'],
  47: ['SO', 47.315, 7.693, 'Balsthal'],
  48: ['AG', 47.2877, 7.9455, 'Zofingen'],
  49: ['BE', 47.2153, 7.796, 'Langenthal'],
  50: ['AG', 47.3925, 8.0444, 'Aarau'],
  51: ['AG', 47.4161, 8.1647, 'Wildegg'],
  52: ['AG', 47.4809, 8.2088, 'Brugg'],
  53: ['AG', 47.589, 8.293, 'Bad Zurzach'],
  54: ['AG', 47.4729, 8.3068, 'Baden'],
  55: ['AG', 47.4197, 8.2737, 'Mellingen'],
  56: ['AG', 47.3885, 8.1802, 'Lenzburg'],
  57: ['AG', 47.2553, 8.1805, 'Reinach AG'],
  60: ['LU', 47.0502, 8.3093, 'Luzern'],
  61: ['LU', 47.1218, 7.9944, 'Willisau'],
  62: ['LU', 47.1712, 8.111, 'Sursee'],
  63: ['ZG', 47.1662, 8.5155, 'Zug'],
  64: ['SZ', 47.0207, 8.653, 'Schwyz'],
  65: ['TI', 46.1944, 9.0175, 'Bellinzona'],
  66: ['TI', 46.167, 8.7943, 'Locarno'],
  67: ['TI', 46.3597, 8.97, 'Biasca'],
  68: ['TI', 45.8705, 8.9816, 'Mendrisio'],
  69: ['TI', 46.0037, 8.9511, 'Lugano'],
  70: ['GR', 46.8508, 9.532, 'Chur'],
  71: ['GR', 46.7737, 9.2046, 'Ilanz'],
  72: ['GR', 46.8027, 9.836, 'Davos'],
  73: ['GR', 46.967, 9.555, 'Landquart'],
  74: ['GR', 46.697, 9.44, 'Thusis'],
  75: ['GR', 46.4983, 9.839, 'St. Moritz'],
  76: ['GR', 46.353, 9.628, 'Vicosoprano'],
  77: ['GR', 46.3245, 10.058, 'Poschiavo'],
  80: ['ZH', 47.3769, 8.5417, 'Zürich'],
  81: ['ZH', 47.522, 8.54, 'Bülach'],
  82: ['SH', 47.6973, 8.6349, 'Schaffhausen'],
  83: ['ZH', 47.367, 8.782, 'Pfäffikon ZH'],
  84: ['ZH', 47.5001, 8.7502, 'Winterthur'],
  85: ['TG', 47.5536, 8.8987, 'Frauenfeld'],
  86: ['ZH', 47.3471, 8.7209, 'Uster'],
  87: ['ZH', 47.2706, 8.6437, 'Meilen'],
  88: ['ZH', 47.2592, 8.5976, 'Horgen'],
  89: ['ZH', 47.4017, 8.4001, 'Dietikon'],
  90: ['SG', 47.4245, 9.3767, 'St. Gallen'],
  91: ['AR', 47.3859, 9.2792, 'Herisau'],
  92: ['SG', 47.4153, 9.2549, 'Gossau SG'],
  93: ['TG', 47.5167, 9.4333, 'Arbon'],
  94: ['SG', 47.478, 9.49, 'Rorschach'],
  95: ['SG', 47.4615, 9.0455, 'Wil SG'],
  96: ['SG', 47.2996, 9.0869, 'Wattwil'],
};

/** Towns (and cities' postcode ranges) with their own entry: [from, to, …entry]. */
const TOWNS: Array<[from: number, to: number, ...entry: Entry]> = [
  [1000, 1018, 'VD', 46.5197, 6.6323, 'Lausanne'],
  [1020, 1020, 'VD', 46.5353, 6.5881, 'Renens VD'],
  [1110, 1110, 'VD', 46.5113, 6.4985, 'Morges'],
  [1200, 1209, 'GE', 46.2044, 6.1432, 'Genève'],
  [1217, 1217, 'GE', 46.2343, 6.0796, 'Meyrin'],
  [1227, 1227, 'GE', 46.1829, 6.1393, 'Carouge GE'],
  [1260, 1260, 'VD', 46.3833, 6.2396, 'Nyon'],
  [1290, 1290, 'GE', 46.2838, 6.1617, 'Versoix'],
  [1400, 1400, 'VD', 46.7785, 6.6412, 'Yverdon-les-Bains'],
  [1470, 1470, 'FR', 46.849, 6.846, 'Estavayer-le-Lac'],
  [1530, 1530, 'VD', 46.822, 6.938, 'Payerne'],
  [1630, 1630, 'FR', 46.6193, 7.0577, 'Bulle'],
  [1700, 1700, 'FR', 46.8065, 7.162, 'Fribourg'],
  [1800, 1800, 'VD', 46.4628, 6.8419, 'Vevey'],
  [1820, 1820, 'VD', 46.4312, 6.9107, 'Montreux'],
  [1860, 1860, 'VD', 46.3179, 6.9706, 'Aigle'],
  [1870, 1870, 'VS', 46.2548, 6.9543, 'Monthey'],
  [1920, 1920, 'VS', 46.1028, 7.072, 'Martigny'],
  [1950, 1951, 'VS', 46.2331, 7.3606, 'Sion'],
  [2000, 2000, 'NE', 46.99, 6.9293, 'Neuchâtel'],
  [2300, 2300, 'NE', 47.1035, 6.8328, 'La Chaux-de-Fonds'],
  [2400, 2400, 'NE', 47.0563, 6.7491, 'Le Locle'],
  [2500, 2505, 'BE', 47.1368, 7.2468, 'Biel/Bienne'],
  // Moutier belongs to the canton of Jura since 1 January 2026.
  [2740, 2740, 'JU', 47.2793, 7.37, 'Moutier'],
  [2800, 2800, 'JU', 47.3649, 7.3445, 'Delémont'],
  [2900, 2900, 'JU', 47.4153, 7.0758, 'Porrentruy'],
  [3000, 3030, 'BE', 46.948, 7.4474, 'Bern'],
  [3186, 3186, 'FR', 46.849, 7.189, 'Düdingen'],
  [3280, 3280, 'FR', 46.928, 7.117, 'Murten'],
  [3400, 3400, 'BE', 47.0559, 7.6279, 'Burgdorf'],
  [3600, 3600, 'BE', 46.758, 7.628, 'Thun'],
  [3800, 3800, 'BE', 46.6863, 7.8632, 'Interlaken'],
  [3900, 3900, 'VS', 46.3159, 7.9876, 'Brig'],
  [3920, 3920, 'VS', 46.0207, 7.7491, 'Zermatt'],
  [3960, 3960, 'VS', 46.292, 7.5323, 'Sierre'],
  [4000, 4059, 'BS', 47.5596, 7.5886, 'Basel'],
  [4125, 4125, 'BS', 47.5788, 7.6469, 'Riehen'],
  [4226, 4226, 'SO', 47.405, 7.545, 'Breitenbach'],
  [4410, 4410, 'BL', 47.4846, 7.7343, 'Liestal'],
  [4500, 4500, 'SO', 47.2088, 7.5323, 'Solothurn'],
  [4600, 4600, 'SO', 47.3499, 7.9033, 'Olten'],
  [4900, 4900, 'BE', 47.2153, 7.796, 'Langenthal'],
  [5000, 5004, 'AG', 47.3925, 8.0444, 'Aarau'],
  [5200, 5200, 'AG', 47.4809, 8.2088, 'Brugg'],
  [5400, 5400, 'AG', 47.4729, 8.3068, 'Baden'],
  [5430, 5430, 'AG', 47.4705, 8.3164, 'Wettingen'],
  [5600, 5600, 'AG', 47.3885, 8.1802, 'Lenzburg'],
  [5610, 5610, 'AG', 47.3521, 8.2778, 'Wohlen AG'],
  [6000, 6015, 'LU', 47.0502, 8.3093, 'Luzern'],
  [6020, 6020, 'LU', 47.077, 8.278, 'Emmenbrücke'],
  [6060, 6060, 'OW', 46.896, 8.246, 'Sarnen'],
  [6300, 6300, 'ZG', 47.1662, 8.5155, 'Zug'],
  [6330, 6330, 'ZG', 47.1821, 8.4636, 'Cham'],
  [6340, 6340, 'ZG', 47.1963, 8.5295, 'Baar'],
  [6370, 6370, 'NW', 46.958, 8.366, 'Stans'],
  [6390, 6390, 'OW', 46.8196, 8.4072, 'Engelberg'],
  [6430, 6430, 'SZ', 47.0207, 8.653, 'Schwyz'],
  [6460, 6460, 'UR', 46.8806, 8.6444, 'Altdorf UR'],
  [6500, 6500, 'TI', 46.1944, 9.0175, 'Bellinzona'],
  [6600, 6600, 'TI', 46.167, 8.7943, 'Locarno'],
  [6830, 6830, 'TI', 45.8328, 9.0312, 'Chiasso'],
  [6850, 6850, 'TI', 45.8705, 8.9816, 'Mendrisio'],
  [6900, 6900, 'TI', 46.0037, 8.9511, 'Lugano'],
  [7000, 7000, 'GR', 46.8508, 9.532, 'Chur'],
  [7270, 7270, 'GR', 46.8027, 9.836, 'Davos Platz'],
  [7310, 7310, 'SG', 47.006, 9.502, 'Bad Ragaz'],
  [7320, 7320, 'SG', 47.048, 9.439, 'Sargans'],
  [7500, 7500, 'GR', 46.4983, 9.839, 'St. Moritz'],
  [8000, 8099, 'ZH', 47.3769, 8.5417, 'Zürich'],
  [8180, 8180, 'ZH', 47.522, 8.54, 'Bülach'],
  [8200, 8200, 'SH', 47.6973, 8.6349, 'Schaffhausen'],
  [8280, 8280, 'TG', 47.6458, 9.1781, 'Kreuzlingen'],
  [8304, 8304, 'ZH', 47.415, 8.596, 'Wallisellen'],
  [8400, 8411, 'ZH', 47.5001, 8.7502, 'Winterthur'],
  [8500, 8500, 'TG', 47.5536, 8.8987, 'Frauenfeld'],
  [8570, 8570, 'TG', 47.5667, 9.1, 'Weinfelden'],
  [8590, 8590, 'TG', 47.5659, 9.3787, 'Romanshorn'],
  [8600, 8600, 'ZH', 47.3972, 8.6184, 'Dübendorf'],
  [8610, 8610, 'ZH', 47.3471, 8.7209, 'Uster'],
  [8640, 8640, 'SG', 47.2266, 8.8184, 'Rapperswil SG'],
  [8750, 8750, 'GL', 47.0404, 9.0679, 'Glarus'],
  [8808, 8808, 'SZ', 47.201, 8.778, 'Pfäffikon SZ'],
  [8810, 8810, 'ZH', 47.2592, 8.5976, 'Horgen'],
  [8820, 8820, 'ZH', 47.2268, 8.6687, 'Wädenswil'],
  [8840, 8840, 'SZ', 47.1285, 8.7434, 'Einsiedeln'],
  [8952, 8952, 'ZH', 47.3967, 8.4476, 'Schlieren'],
  [8953, 8953, 'ZH', 47.4017, 8.4001, 'Dietikon'],
  [8957, 8957, 'AG', 47.423, 8.366, 'Spreitenbach'],
  [9000, 9016, 'SG', 47.4245, 9.3767, 'St. Gallen'],
  [9050, 9050, 'AI', 47.331, 9.409, 'Appenzell'],
  [9100, 9100, 'AR', 47.3859, 9.2792, 'Herisau'],
  [9200, 9200, 'SG', 47.4153, 9.2549, 'Gossau SG'],
  [9220, 9220, 'TG', 47.495, 9.239, 'Bischofszell'],
  [9320, 9320, 'TG', 47.5167, 9.4333, 'Arbon'],
  [9400, 9400, 'SG', 47.478, 9.49, 'Rorschach'],
  [9470, 9470, 'SG', 47.167, 9.478, 'Buchs SG'],
  [9485, 9498, null, 47.141, 9.5215, 'Vaduz (Liechtenstein)'],
  [9500, 9500, 'SG', 47.4615, 9.0455, 'Wil SG'],
];

const place = (entry: Entry, precision: PostcodePlace['precision']): PostcodePlace => ({
  canton: entry[0],
  latitude: entry[1],
  longitude: entry[2],
  place: entry[3],
  precision,
});

/**
 * The canton and coordinates of a Swiss (or Liechtenstein) postcode: four digits 1000–9699,
 * white space around it ignored ("CH-8001" and "8001 " too). Undefined when it is none or its area
 * is unknown.
 */
export function lookupPostcode(zip: unknown): PostcodePlace | undefined {
  if (typeof zip !== 'string') return undefined;
  const match = /^\s*(?:CH-?)?(\d{4})\s*$/i.exec(zip);
  if (!match) return undefined;
  const code = Number(match[1]);
  for (const [from, to, ...entry] of TOWNS) {
    if (code >= from && code <= to) return place(entry, 'town');
  }
  const area = AREAS[Math.floor(code / 100)];
  return area ? place(area, 'area') : undefined;
}

/** The two-digit areas the table knows (tests). */
export const KNOWN_AREAS: readonly number[] = Object.keys(AREAS).map(Number);
