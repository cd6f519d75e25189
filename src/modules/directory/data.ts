/**
 * ISO 3166-1 countries (all 249 officially assigned codes) and the regions of the countries where an address
 * picks its region from a list. Static data, parsed once at load; nothing is fetched or derived at runtime.
 *
 * Country lines: `ISO2 ISO3 English short name`.
 * Region lines: `id code name` under a line holding the country's ISO-2 code.
 *
 * Region ids are stored in addresses, orders and tax rates: they are stable and never renumbered; a new region
 * takes the next free id. Ids 1-277 are Magento 1's (US 1-65, CA 66-78, DE 79-94, AT 95-103, CH 104-129,
 * ES 130-181, FR 182-277). Ids 278-511 stay unused because Magento 1 gives them to Romania, Finland, Estonia,
 * Latvia, Lithuania and Brazil, so that ids carried over from a Magento database never name another region.
 * Australia and Italy, which Magento 1 lacks, follow from 512. Codes are Magento's where it has them (Magento
 * spells Spanish codes as names; ours are the ISO 3166-2 province codes) and ISO 3166-2 elsewhere.
 */
export interface CountryRow {
  iso2: string;
  iso3: string;
  name: string;
}
export interface RegionRow {
  id: number;
  countryId: string;
  code: string;
  name: string;
}

const COUNTRY_LINES = `
AD AND Andorra
AE ARE United Arab Emirates
AF AFG Afghanistan
AG ATG Antigua and Barbuda
AI AIA Anguilla
AL ALB Albania
AM ARM Armenia
AO AGO Angola
AQ ATA Antarctica
AR ARG Argentina
AS ASM American Samoa
AT AUT Austria
AU AUS Australia
AW ABW Aruba
AX ALA Åland Islands
AZ AZE Azerbaijan
BA BIH Bosnia and Herzegovina
BB BRB Barbados
BD BGD Bangladesh
BE BEL Belgium
BF BFA Burkina Faso
BG BGR Bulgaria
BH BHR Bahrain
BI BDI Burundi
BJ BEN Benin
BL BLM Saint Barthélemy
BM BMU Bermuda
BN BRN Brunei
BO BOL Bolivia
BQ BES Caribbean Netherlands
BR BRA Brazil
BS BHS Bahamas
BT BTN Bhutan
BV BVT Bouvet Island
BW BWA Botswana
BY BLR Belarus
BZ BLZ Belize
CA CAN Canada
CC CCK Cocos (Keeling) Islands
CD COD Congo - Kinshasa
CF CAF Central African Republic
CG COG Congo - Brazzaville
CH CHE Switzerland
CI CIV Côte d'Ivoire
CK COK Cook Islands
CL CHL Chile
CM CMR Cameroon
CN CHN China
CO COL Colombia
CR CRI Costa Rica
CU CUB Cuba
CV CPV Cape Verde
CW CUW Curaçao
CX CXR Christmas Island
CY CYP Cyprus
CZ CZE Czechia
DE DEU Germany
DJ DJI Djibouti
DK DNK Denmark
DM DMA Dominica
DO DOM Dominican Republic
DZ DZA Algeria
EC ECU Ecuador
EE EST Estonia
EG EGY Egypt
EH ESH Western Sahara
ER ERI Eritrea
ES ESP Spain
ET ETH Ethiopia
FI FIN Finland
FJ FJI Fiji
FK FLK Falkland Islands
FM FSM Micronesia
FO FRO Faroe Islands
FR FRA France
GA GAB Gabon
GB GBR United Kingdom
GD GRD Grenada
GE GEO Georgia
GF GUF French Guiana
GG GGY Guernsey
GH GHA Ghana
GI GIB Gibraltar
GL GRL Greenland
GM GMB Gambia
GN GIN Guinea
GP GLP Guadeloupe
GQ GNQ Equatorial Guinea
GR GRC Greece
GS SGS South Georgia and the South Sandwich Islands
GT GTM Guatemala
GU GUM Guam
GW GNB Guinea-Bissau
GY GUY Guyana
HK HKG Hong Kong
HM HMD Heard Island and McDonald Islands
HN HND Honduras
HR HRV Croatia
HT HTI Haiti
HU HUN Hungary
ID IDN Indonesia
IE IRL Ireland
IL ISR Israel
IM IMN Isle of Man
IN IND India
IO IOT British Indian Ocean Territory
IQ IRQ Iraq
IR IRN Iran
IS ISL Iceland
IT ITA Italy
JE JEY Jersey
JM JAM Jamaica
JO JOR Jordan
JP JPN Japan
KE KEN Kenya
KG KGZ Kyrgyzstan
KH KHM Cambodia
KI KIR Kiribati
KM COM Comoros
KN KNA Saint Kitts and Nevis
KP PRK North Korea
KR KOR South Korea
KW KWT Kuwait
KY CYM Cayman Islands
KZ KAZ Kazakhstan
LA LAO Laos
LB LBN Lebanon
LC LCA Saint Lucia
LI LIE Liechtenstein
LK LKA Sri Lanka
LR LBR Liberia
LS LSO Lesotho
LT LTU Lithuania
LU LUX Luxembourg
LV LVA Latvia
LY LBY Libya
MA MAR Morocco
MC MCO Monaco
MD MDA Moldova
ME MNE Montenegro
MF MAF Saint Martin
MG MDG Madagascar
MH MHL Marshall Islands
MK MKD North Macedonia
ML MLI Mali
MM MMR Myanmar
MN MNG Mongolia
MO MAC Macao
MP MNP Northern Mariana Islands
MQ MTQ Martinique
MR MRT Mauritania
MS MSR Montserrat
MT MLT Malta
MU MUS Mauritius
MV MDV Maldives
MW MWI Malawi
MX MEX Mexico
MY MYS Malaysia
MZ MOZ Mozambique
NA NAM Namibia
NC NCL New Caledonia
NE NER Niger
NF NFK Norfolk Island
NG NGA Nigeria
NI NIC Nicaragua
NL NLD Netherlands
NO NOR Norway
NP NPL Nepal
NR NRU Nauru
NU NIU Niue
NZ NZL New Zealand
OM OMN Oman
PA PAN Panama
PE PER Peru
PF PYF French Polynesia
PG PNG Papua New Guinea
PH PHL Philippines
PK PAK Pakistan
PL POL Poland
PM SPM Saint Pierre and Miquelon
PN PCN Pitcairn Islands
PR PRI Puerto Rico
PS PSE Palestine
PT PRT Portugal
PW PLW Palau
PY PRY Paraguay
QA QAT Qatar
RE REU Réunion
RO ROU Romania
RS SRB Serbia
RU RUS Russia
RW RWA Rwanda
SA SAU Saudi Arabia
SB SLB Solomon Islands
SC SYC Seychelles
SD SDN Sudan
SE SWE Sweden
SG SGP Singapore
SH SHN Saint Helena
SI SVN Slovenia
SJ SJM Svalbard and Jan Mayen
SK SVK Slovakia
SL SLE Sierra Leone
SM SMR San Marino
SN SEN Senegal
SO SOM Somalia
SR SUR Suriname
SS SSD South Sudan
ST STP São Tomé and Príncipe
SV SLV El Salvador
SX SXM Sint Maarten
SY SYR Syria
SZ SWZ Eswatini
TC TCA Turks and Caicos Islands
TD TCD Chad
TF ATF French Southern Territories
TG TGO Togo
TH THA Thailand
TJ TJK Tajikistan
TK TKL Tokelau
TL TLS Timor-Leste
TM TKM Turkmenistan
TN TUN Tunisia
TO TON Tonga
TR TUR Türkiye
TT TTO Trinidad and Tobago
TV TUV Tuvalu
TW TWN Taiwan
TZ TZA Tanzania
UA UKR Ukraine
UG UGA Uganda
UM UMI U.S. Outlying Islands
US USA United States
UY URY Uruguay
UZ UZB Uzbekistan
VA VAT Vatican City
VC VCT Saint Vincent and the Grenadines
VE VEN Venezuela
VG VGB British Virgin Islands
VI VIR U.S. Virgin Islands
VN VNM Vietnam
VU VUT Vanuatu
WF WLF Wallis and Futuna
WS WSM Samoa
YE YEM Yemen
YT MYT Mayotte
ZA ZAF South Africa
ZM ZMB Zambia
ZW ZWE Zimbabwe
`;

const REGION_LINES = `
US
1 AL Alabama
2 AK Alaska
3 AS American Samoa
4 AZ Arizona
5 AR Arkansas
6 AF Armed Forces Africa
7 AA Armed Forces Americas
8 AC Armed Forces Canada
9 AE Armed Forces Europe
10 AM Armed Forces Middle East
11 AP Armed Forces Pacific
12 CA California
13 CO Colorado
14 CT Connecticut
15 DE Delaware
16 DC District of Columbia
17 FM Federated States of Micronesia
18 FL Florida
19 GA Georgia
20 GU Guam
21 HI Hawaii
22 ID Idaho
23 IL Illinois
24 IN Indiana
25 IA Iowa
26 KS Kansas
27 KY Kentucky
28 LA Louisiana
29 ME Maine
30 MH Marshall Islands
31 MD Maryland
32 MA Massachusetts
33 MI Michigan
34 MN Minnesota
35 MS Mississippi
36 MO Missouri
37 MT Montana
38 NE Nebraska
39 NV Nevada
40 NH New Hampshire
41 NJ New Jersey
42 NM New Mexico
43 NY New York
44 NC North Carolina
45 ND North Dakota
46 MP Northern Mariana Islands
47 OH Ohio
48 OK Oklahoma
49 OR Oregon
50 PW Palau
51 PA Pennsylvania
52 PR Puerto Rico
53 RI Rhode Island
54 SC South Carolina
55 SD South Dakota
56 TN Tennessee
57 TX Texas
58 UT Utah
59 VT Vermont
60 VI Virgin Islands
61 VA Virginia
62 WA Washington
63 WV West Virginia
64 WI Wisconsin
65 WY Wyoming
CA
66 AB Alberta
67 BC British Columbia
68 MB Manitoba
69 NL Newfoundland and Labrador
70 NB New Brunswick
71 NS Nova Scotia
72 NT Northwest Territories
73 NU Nunavut
74 ON Ontario
75 PE Prince Edward Island
76 QC Quebec
77 SK Saskatchewan
78 YT Yukon
DE
79 NDS Niedersachsen
80 BAW Baden-Württemberg
81 BAY Bayern
82 BER Berlin
83 BRG Brandenburg
84 BRE Bremen
85 HAM Hamburg
86 HES Hessen
87 MEC Mecklenburg-Vorpommern
88 NRW Nordrhein-Westfalen
89 RHE Rheinland-Pfalz
90 SAR Saarland
91 SAS Sachsen
92 SAC Sachsen-Anhalt
93 SCN Schleswig-Holstein
94 THE Thüringen
AT
95 WI Wien
96 NO Niederösterreich
97 OO Oberösterreich
98 SB Salzburg
99 KN Kärnten
100 ST Steiermark
101 TI Tirol
102 BL Burgenland
103 VB Vorarlberg
CH
104 AG Aargau
105 AI Appenzell Innerrhoden
106 AR Appenzell Ausserrhoden
107 BE Bern
108 BL Basel-Landschaft
109 BS Basel-Stadt
110 FR Freiburg
111 GE Genf
112 GL Glarus
113 GR Graubünden
114 JU Jura
115 LU Luzern
116 NE Neuenburg
117 NW Nidwalden
118 OW Obwalden
119 SG St. Gallen
120 SH Schaffhausen
121 SO Solothurn
122 SZ Schwyz
123 TG Thurgau
124 TI Tessin
125 UR Uri
126 VD Waadt
127 VS Wallis
128 ZG Zug
129 ZH Zürich
ES
130 C A Coruña
131 VI Álava
132 AB Albacete
133 A Alicante
134 AL Almería
135 O Asturias
136 AV Ávila
137 BA Badajoz
138 PM Baleares
139 B Barcelona
140 BU Burgos
141 CC Cáceres
142 CA Cádiz
143 S Cantabria
144 CS Castellón
145 CE Ceuta
146 CR Ciudad Real
147 CO Córdoba
148 CU Cuenca
149 GI Girona
150 GR Granada
151 GU Guadalajara
152 SS Guipúzcoa
153 H Huelva
154 HU Huesca
155 J Jaén
156 LO La Rioja
157 GC Las Palmas
158 LE León
159 L Lleida
160 LU Lugo
161 M Madrid
162 MA Málaga
163 ML Melilla
164 MU Murcia
165 NA Navarra
166 OR Ourense
167 P Palencia
168 PO Pontevedra
169 SA Salamanca
170 TF Santa Cruz de Tenerife
171 SG Segovia
172 SE Sevilla
173 SO Soria
174 T Tarragona
175 TE Teruel
176 TO Toledo
177 V Valencia
178 VA Valladolid
179 BI Vizcaya
180 ZA Zamora
181 Z Zaragoza
FR
182 01 Ain
183 02 Aisne
184 03 Allier
185 04 Alpes-de-Haute-Provence
186 05 Hautes-Alpes
187 06 Alpes-Maritimes
188 07 Ardèche
189 08 Ardennes
190 09 Ariège
191 10 Aube
192 11 Aude
193 12 Aveyron
194 13 Bouches-du-Rhône
195 14 Calvados
196 15 Cantal
197 16 Charente
198 17 Charente-Maritime
199 18 Cher
200 19 Corrèze
201 2A Corse-du-Sud
202 2B Haute-Corse
203 21 Côte-d'Or
204 22 Côtes-d'Armor
205 23 Creuse
206 24 Dordogne
207 25 Doubs
208 26 Drôme
209 27 Eure
210 28 Eure-et-Loir
211 29 Finistère
212 30 Gard
213 31 Haute-Garonne
214 32 Gers
215 33 Gironde
216 34 Hérault
217 35 Ille-et-Vilaine
218 36 Indre
219 37 Indre-et-Loire
220 38 Isère
221 39 Jura
222 40 Landes
223 41 Loir-et-Cher
224 42 Loire
225 43 Haute-Loire
226 44 Loire-Atlantique
227 45 Loiret
228 46 Lot
229 47 Lot-et-Garonne
230 48 Lozère
231 49 Maine-et-Loire
232 50 Manche
233 51 Marne
234 52 Haute-Marne
235 53 Mayenne
236 54 Meurthe-et-Moselle
237 55 Meuse
238 56 Morbihan
239 57 Moselle
240 58 Nièvre
241 59 Nord
242 60 Oise
243 61 Orne
244 62 Pas-de-Calais
245 63 Puy-de-Dôme
246 64 Pyrénées-Atlantiques
247 65 Hautes-Pyrénées
248 66 Pyrénées-Orientales
249 67 Bas-Rhin
250 68 Haut-Rhin
251 69 Rhône
252 70 Haute-Saône
253 71 Saône-et-Loire
254 72 Sarthe
255 73 Savoie
256 74 Haute-Savoie
257 75 Paris
258 76 Seine-Maritime
259 77 Seine-et-Marne
260 78 Yvelines
261 79 Deux-Sèvres
262 80 Somme
263 81 Tarn
264 82 Tarn-et-Garonne
265 83 Var
266 84 Vaucluse
267 85 Vendée
268 86 Vienne
269 87 Haute-Vienne
270 88 Vosges
271 89 Yonne
272 90 Territoire de Belfort
273 91 Essonne
274 92 Hauts-de-Seine
275 93 Seine-Saint-Denis
276 94 Val-de-Marne
277 95 Val-d'Oise
AU
512 ACT Australian Capital Territory
513 NSW New South Wales
514 NT Northern Territory
515 QLD Queensland
516 SA South Australia
517 TAS Tasmania
518 VIC Victoria
519 WA Western Australia
IT
520 AG Agrigento
521 AL Alessandria
522 AN Ancona
523 AO Aosta
524 AR Arezzo
525 AP Ascoli Piceno
526 AT Asti
527 AV Avellino
528 BA Bari
529 BT Barletta-Andria-Trani
530 BL Belluno
531 BN Benevento
532 BG Bergamo
533 BI Biella
534 BO Bologna
535 BZ Bolzano
536 BS Brescia
537 BR Brindisi
538 CA Cagliari
539 CL Caltanissetta
540 CB Campobasso
541 CE Caserta
542 CT Catania
543 CZ Catanzaro
544 CH Chieti
545 CO Como
546 CS Cosenza
547 CR Cremona
548 KR Crotone
549 CN Cuneo
550 EN Enna
551 FM Fermo
552 FE Ferrara
553 FI Firenze
554 FG Foggia
555 FC Forlì-Cesena
556 FR Frosinone
557 GE Genova
558 GO Gorizia
559 GR Grosseto
560 IM Imperia
561 IS Isernia
562 SP La Spezia
563 AQ L'Aquila
564 LT Latina
565 LE Lecce
566 LC Lecco
567 LI Livorno
568 LO Lodi
569 LU Lucca
570 MC Macerata
571 MN Mantova
572 MS Massa-Carrara
573 MT Matera
574 ME Messina
575 MI Milano
576 MO Modena
577 MB Monza e Brianza
578 NA Napoli
579 NO Novara
580 NU Nuoro
581 OR Oristano
582 PD Padova
583 PA Palermo
584 PR Parma
585 PV Pavia
586 PG Perugia
587 PU Pesaro e Urbino
588 PE Pescara
589 PC Piacenza
590 PI Pisa
591 PT Pistoia
592 PN Pordenone
593 PZ Potenza
594 PO Prato
595 RG Ragusa
596 RA Ravenna
597 RC Reggio Calabria
598 RE Reggio Emilia
599 RI Rieti
600 RN Rimini
601 RM Roma
602 RO Rovigo
603 SA Salerno
604 SS Sassari
605 SV Savona
606 SI Siena
607 SR Siracusa
608 SO Sondrio
609 SU Sud Sardegna
610 TA Taranto
611 TE Teramo
612 TR Terni
613 TO Torino
614 TP Trapani
615 TN Trento
616 TV Treviso
617 TS Trieste
618 UD Udine
619 VA Varese
620 VE Venezia
621 VB Verbano-Cusio-Ossola
622 VC Vercelli
623 VR Verona
624 VV Vibo Valentia
625 VI Vicenza
626 VT Viterbo
`;

function parseCountries(text: string): CountryRow[] {
  const out: CountryRow[] = [];
  for (const line of text.split('\n')) {
    const m = /^([A-Z]{2}) ([A-Z]{3}) (.+)$/.exec(line.trim());
    if (m) out.push({ iso2: m[1], iso3: m[2], name: m[3] });
    else if (line.trim()) throw new Error(`directory data: bad country line "${line}"`);
  }
  return out;
}

function parseRegions(text: string): RegionRow[] {
  const out: RegionRow[] = [];
  let countryId = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (/^[A-Z]{2}$/.test(line)) {
      countryId = line;
      continue;
    }
    const m = /^(\d+) (\S+) (.+)$/.exec(line);
    if (!m || !countryId) throw new Error(`directory data: bad region line "${line}"`);
    out.push({ id: Number(m[1]), countryId, code: m[2], name: m[3] });
  }
  return out;
}

export const COUNTRIES: readonly CountryRow[] = Object.freeze(parseCountries(COUNTRY_LINES));
export const REGIONS: readonly RegionRow[] = Object.freeze(parseRegions(REGION_LINES));
