/**
 * The Global check's pension rules (issue 19, "Correctness"): worked cases whose expected figures
 * are computed by hand in the comments from the official sources — the AHV/IV scale tables
 * ("Skala 44", BSV/OFAS, valid from 1 January 2025, unchanged in 2026), AHVG art. 34–38 (formula,
 * couple cap, child and survivors' pensions), IVG art. 28b (degree → share), BVG art. 8, 16, 21,
 * 24 and BVV 2 art. 5, 12, 24 (limits, credits, interest, survivors, overinsurance), UVG art. 20
 * and 31, UVV art. 22 (insured earnings, disability, survivors), AHVG art. 21 with the AHV 21
 * transitional provisions (reference age), AHVG art. 34bis (13th old-age pension). None of the
 * expected values is produced by the code under test.
 */
import { describe, expect, it } from 'vitest';
import { figuresFor, PENSION_FIGURES } from '../../src/schema/pension/figures.ts';
import { computeGlobalCheck, type GlobalCheckInput } from '../../src/schema/pension/gap.ts';
import {
  ahvFullPension,
  ahvOrphanPension,
  ahvPension,
  bvgCoordinatedSalary,
  coupleCap,
  ivPension,
  ivPensionShare,
  pillar3aLimit,
  referenceAge,
  retirementStart,
  twoChildPensions,
  uvgDisabilityPension,
} from '../../src/schema/pension/rules.ts';

const f2025 = figuresFor(2025);
const f2026 = figuresFor(2026);

/** A man of 40 in 2025 (BVG age 2025 − 1985 = 40), employed at CHF 80,000 with CHF 100,000 of BVG
 *  savings, single without children. */
const base: GlobalCheckInput = {
  asOf: '2025-06-30',
  birthDate: '1985-06-15',
  sex: 'male',
  civilStatus: 'single',
  grossIncome: 80000,
  employmentStatus: 'employed',
  bvgSavings: 100000,
};

/** The same man married to a woman born 1987, with two children born 2015 and 2018 (aged 10 and 7
 *  on 30 June 2025: both entitled to orphan's and child pensions). */
const family: GlobalCheckInput = {
  ...base,
  civilStatus: 'married',
  partner: { birthDate: '1987-02-01', sex: 'female' },
  children: [{ birthDate: '2015-03-01' }, { birthDate: '2018-09-01' }],
};

const amount = (
  benefits: ReadonlyArray<{ source: string; kind: string; monthly: number; child?: number }>,
  source: string,
  kind: string,
): number =>
  benefits.filter((b) => b.source === source && b.kind === kind).reduce((s, b) => s + b.monthly, 0);

describe('the figures table', () => {
  it('holds 2025 and 2026; earlier years take 2025, later ones the newest', () => {
    // The table's rows (brief: 2025 = 2026 except the 13th old-age pension and the 3a catch-up).
    expect(PENSION_FIGURES.map((row) => row.year)).toEqual([2025, 2026]);
    expect(figuresFor(2024).year).toBe(2025);
    expect(figuresFor(2031).year).toBe(2026);
    expect(f2026.bvg).toEqual(f2025.bvg);
    expect(f2025.ahv.thirteenthOldAgePension).toBe(false);
    expect(f2026.ahv.thirteenthOldAgePension).toBe(true);
  });

  it('pillar 3a: 7,258 with a pension fund; 20 % up to 36,288 without (BVV 3 art. 7)', () => {
    // Änderungen 2025: 7,258 / 36,288. 20 % of 100,000 = 20,000; 20 % of 200,000 = 40,000 → 36,288.
    expect(pillar3aLimit(100000, true, f2025)).toBe(7258);
    expect(pillar3aLimit(100000, false, f2025)).toBe(20000);
    expect(pillar3aLimit(200000, false, f2025)).toBe(36288);
  });
});

describe('AHV old-age pension (Skala 44, AHVG art. 34)', () => {
  it('case 1 — minimum: 1,260 a month up to an average income of 15,120 (12 × 1,260)', () => {
    // Skala 44 2025, first row: income up to 15,120 → 1,260. By the formula at 15,120:
    // 0.74 × 1,260 + 13/600 × 15,120 = 932.40 + 327.60 = 1,260.
    expect(ahvFullPension(0, f2025)).toBe(1260);
    expect(ahvFullPension(10000, f2025)).toBe(1260);
    expect(ahvFullPension(15120, f2025)).toBeCloseTo(1260, 6);
  });

  it('case 2 — maximum: 2,520 a month from an average income of 90,720 (72 × 1,260)', () => {
    // Skala 44 2025, last row: 90,720 and more → 2,520. Formula: 1.04 × 1,260 + 8/600 × 90,720
    // = 1,310.40 + 1,209.60 = 2,520.
    expect(ahvFullPension(90720, f2025)).toBeCloseTo(2520, 6);
    expect(ahvFullPension(150000, f2025)).toBe(2520);
  });

  it('between: the two branches of the formula meet at 45,360 (36 × 1,260)', () => {
    // 0.74 × 1,260 + 13/600 × 45,360 = 932.40 + 982.80 = 1,915.20 (Skala 44: 1,915);
    // 60,000: 1.04 × 1,260 + 8/600 × 60,000 = 1,310.40 + 800 = 2,110.40.
    expect(ahvFullPension(45360, f2025)).toBeCloseTo(1915.2, 6);
    expect(ahvFullPension(60000, f2025)).toBeCloseTo(2110.4, 6);
  });

  it('case 3 — 4 missing contribution years: 40/44 of the full pension (AHVG art. 38)', () => {
    // 2,520 × 40 / 44 = 2,290.91 → 2,291 (the partial pension scale 40 of the 2025 tables).
    expect(ahvPension(100000, 4, f2025)).toBeCloseTo(2290.909, 2);
    expect(Math.round(ahvPension(100000, 4, f2025))).toBe(2291);
  });

  it('case 4 — couple cap: two maximum pensions → 3,780 together, 1,890 each (AHVG art. 35)', () => {
    // 150 % × 2,520 = 3,780 (Änderungen 2025: "maximale Ehepaarrente 3780 Franken").
    expect(coupleCap(2520, 2520, f2025)).toEqual([1890, 1890]);
    // Below the cap nothing changes: 1,260 + 2,000 = 3,260 ≤ 3,780.
    expect(coupleCap(1260, 2000, f2025)).toEqual([1260, 2000]);
  });

  it('couple cap in the retirement tab, and the 13th pension on the capped pension (2026)', () => {
    // Both at 100,000 → 2,520 each → 1,890 each. 2026: + 1,890 / 12 = 157.50 → 158 (rounded).
    const input: GlobalCheckInput = {
      ...base,
      grossIncome: 100000,
      civilStatus: 'married',
      partner: { grossIncome: 100000 },
    };
    const r2025 = computeGlobalCheck(input, 2025).scenarios.retirement.benefits;
    expect(amount(r2025, 'ahv', 'retirement')).toBe(1890);
    const r2026 = computeGlobalCheck(input, 2026).scenarios.retirement.benefits;
    expect(r2026.find((b) => b.notes?.includes('thirteenth'))?.monthly).toBe(158);
  });

  it('two child pensions for one child: 40 % each, together at most 60 % of the maximum', () => {
    // AHVG art. 35ter: 40 % × (2,520 + 2,520) = 2,016 > 60 % × 2,520 = 1,512 → 1,512;
    // 40 % × (1,260 + 1,260) = 1,008 ≤ 1,512 → 1,008.
    expect(twoChildPensions(2520, 2520, f2025)).toBeCloseTo(1512, 6);
    expect(twoChildPensions(1260, 1260, f2025)).toBeCloseTo(1008, 6);
  });

  it('full orphan: both orphan pensions at most 60 % of the maximum (AHVG art. 37 al. 1bis)', () => {
    // Half orphan 40 % × 2,520 = 1,008; full orphan 2 × 1,008 = 2,016 → capped at 1,512.
    expect(ahvOrphanPension(2520, false, f2025)).toBeCloseTo(1008, 6);
    expect(ahvOrphanPension(2520, true, f2025)).toBeCloseTo(1512, 6);
  });
});

describe('IV degree → pension (IVG art. 28b, since 2022)', () => {
  it('case 5 — degree 45 % → 37.5 % of a full pension', () => {
    // 25 % at 40 % + 5 points × 2.5 = 37.5 %. At the maximum: 2,520 × 0.375 = 945.
    expect(ivPensionShare(45, f2025)).toBeCloseTo(0.375, 10);
    expect(ivPension(100000, 0, 45, f2025)).toBeCloseTo(945, 6);
  });

  it('case 6 — degree 60 % → 60 % of a full pension', () => {
    // IVG art. 28b al. 2: 50–69 % equal to the degree. 2,520 × 0.60 = 1,512.
    expect(ivPensionShare(60, f2025)).toBeCloseTo(0.6, 10);
    expect(ivPension(100000, 0, 60, f2025)).toBeCloseTo(1512, 6);
  });

  it('the edges: 39 none, 40 a quarter, 49 47.5 %, 50 half, 69 69 %, 70 full', () => {
    // IVG art. 28b al. 1–4.
    expect([39, 40, 41, 49, 50, 69, 70, 100].map((d) => ivPensionShare(d, f2025))).toEqual([
      0, 0.25, 0.275, 0.475, 0.5, 0.69, 1, 1,
    ]);
  });
});

describe('BVG (the mandatory minimum)', () => {
  it('case 7 — the coordinated salary at the limits (BVG art. 7–8, BVV 2 art. 5)', () => {
    // Below 22,680: not insured. 22,680 − 26,460 < 3,780 → 3,780; 30,000 − 26,460 = 3,540 →
    // 3,780; 50,000 − 26,460 = 23,540; 90,720 − 26,460 = 64,260; above 90,720 → 64,260.
    expect(bvgCoordinatedSalary(22679, f2025)).toBe(0);
    expect(bvgCoordinatedSalary(22680, f2025)).toBe(3780);
    expect(bvgCoordinatedSalary(30000, f2025)).toBe(3780);
    expect(bvgCoordinatedSalary(50000, f2025)).toBe(23540);
    expect(bvgCoordinatedSalary(90720, f2025)).toBe(64260);
    expect(bvgCoordinatedSalary(200000, f2025)).toBe(64260);
  });

  it('case 8 — disability of a 40-year-old at 80,000 with 100,000 of savings (BVG art. 24)', () => {
    // Coordinated salary 80,000 − 26,460 = 53,540. Age credits to 65 without interest (BVG
    // art. 16): ages 40–44 5 × 10 % = 50 %, 45–54 10 × 15 % = 150 %, 55–64 10 × 18 % = 180 %,
    // together 380 % → 53,540 × 3.80 = 203,452. Savings 100,000 + 203,452 = 303,452 × 6.8 %
    // = 20,634.74 a year = 1,719.56 a month → 1,720.
    // IV at 80,000 (AHVG art. 34): 1,310.40 + 8/600 × 80,000 = 2,377.07 → 2,377.
    // Overinsurance (BVV 2 art. 24): 2,377.07 + 1,719.56 = 4,096.63 ≤ 90 % × 6,666.67 = 6,000.
    // Need 80 % × 6,666.67 = 5,333.33; gap 5,333.33 − 4,096.63 = 1,236.71 → 1,237.
    // Waiting period: KTG 80 % × 6,666.67 = 5,333.33 → 5,333 for 720 days, no gap.
    const tab = computeGlobalCheck(base, 2025).scenarios.diseaseDisability;
    expect(amount(tab.benefits, 'bvg', 'disability')).toBe(1720);
    expect(amount(tab.benefits, 'iv', 'disability')).toBe(2377);
    expect(tab.need).toBe(5333);
    expect(tab.cover).toBe(4097);
    expect(tab.gap).toBe(1237);
    // The KTG after its 30-day waiting period (the employer's salary continuation covers those),
    // for the rest of its 720 days.
    expect(tab.waitingPeriod).toMatchObject({
      source: 'ktg',
      fromDay: 31,
      days: 690,
      cover: 5333,
      gap: 0,
    });
  });

  it('overinsurance: the BVG pensions cut to 90 % of the lost income (BVV 2 art. 24)', () => {
    // The same man with his family: IV 2,377.07 + 2 IV child pensions 40 % = 2 × 950.83
    // → 4,278.72. BVG 1,719.56 + 2 child pensions 20 % = 2 × 343.91 → 2,407.39. Room:
    // 6,000 − 4,278.72 = 1,721.28 < 2,407.39 → BVG cut to 1,721.28; cover exactly 6,000.
    const tab = computeGlobalCheck(family, 2025).scenarios.diseaseDisability;
    expect(amount(tab.benefits, 'iv', 'childDisability')).toBe(951 * 2);
    expect(tab.cover).toBe(6000);
    expect(
      tab.benefits
        .filter((b) => b.source === 'bvg')
        .every((b) => b.notes?.includes('overinsurance')),
    ).toBe(true);
  });

  it('retirement projection with the minimum interest (BVG art. 15–16, BVV 2 art. 12)', () => {
    // A man born 1963 (BVG age 62 in 2025, 65 in 2028) at 100,000: coordinated 64,260, credit
    // 18 % = 11,566.80 a year. 300,000 × 1.0125 + 11,566.80 = 315,316.80; × 1.0125 + 11,566.80
    // = 330,825.06; × 1.0125 + 11,566.80 = 346,527.17. × 6.8 % / 12 = 1,963.65 → 1,964.
    // AHV 2,520. Need 80 % × 8,333.33 = 6,666.67; cover 4,483.65 → 4,484; gap 2,183.01 → 2,183.
    const input: GlobalCheckInput = {
      ...base,
      birthDate: '1963-04-10',
      grossIncome: 100000,
      bvgSavings: 300000,
    };
    const tab = computeGlobalCheck(input, 2025).scenarios.retirement;
    expect(amount(tab.benefits, 'bvg', 'retirement')).toBe(1964);
    expect(amount(tab.benefits, 'ahv', 'retirement')).toBe(2520);
    expect(tab.cover).toBe(4484);
    expect(tab.gap).toBe(2183);
  });
});

describe('UVG (accident)', () => {
  it('case 9 — accident disability topped up to 90 % together with the IV (UVG art. 20)', () => {
    // Insured earnings 80,000 / 12 = 6,666.67. UVG 80 % = 5,333.33; with the IV of 2,377.07
    // at most 90 % = 6,000 → complementary pension 6,000 − 2,377.07 = 3,622.93 → 3,623.
    // The BVG's 1,719.56 is cut to 0 (overinsurance: 90 % of 6,666.67 already reached).
    // Cover 6,000; need 5,333.33 → no gap. Daily allowance 80 % from day 3: 5,333.
    const tab = computeGlobalCheck(base, 2025).scenarios.accidentDisability;
    expect(amount(tab.benefits, 'uvg', 'disability')).toBe(3623);
    expect(amount(tab.benefits, 'iv', 'disability')).toBe(2377);
    expect(amount(tab.benefits, 'bvg', 'disability')).toBe(0);
    expect(tab.cover).toBe(6000);
    expect(tab.gap).toBe(0);
    expect(tab.waitingPeriod).toMatchObject({ source: 'uvg', fromDay: 3, cover: 5333 });
  });

  it('above the maximum insured earnings of 148,200 (UVV art. 22)', () => {
    // Income 180,000: insured 148,200 / 12 = 12,350. IV 2,520 (maximum). UVG 80 % = 9,880;
    // 90 % = 11,115 − 2,520 = 8,595 (complementary). BVG: 64,260 × 3.80 = 244,188 + 100,000
    // = 344,188 × 6.8 % / 12 = 1,950.40; room 90 % × 15,000 − 11,115 = 2,385 → not cut.
    // Cover 2,520 + 8,595 + 1,950.40 = 13,065.40 → 13,065.
    expect(uvgDisabilityPension(180000, 100, 2520, f2025).paid).toBeCloseTo(8595, 6);
    const tab = computeGlobalCheck({ ...base, grossIncome: 180000 }, 2025).scenarios
      .accidentDisability;
    expect(amount(tab.benefits, 'bvg', 'disability')).toBe(1950);
    expect(tab.cover).toBe(13065);
  });
});

describe('survivors (AHVG art. 36–37, BVG art. 19–21, UVG art. 29–31)', () => {
  it('case 10 — widow and two orphans after a disease', () => {
    // AHV at 80,000: 2,377.07. Widow 80 % = 1,901.65 → 1,902; orphans 40 % = 950.83 → 951 each.
    // BVG full disability pension 1,719.56: widow 60 % = 1,031.74 → 1,032; orphans 20 % = 343.91
    // → 344 each. Overinsurance: room 6,000 − 3,803.31 = 2,196.69 ≥ 1,719.56, not cut.
    // Need at 90 %: 6,000; cover 3,803.31 + 1,719.56 = 5,522.87 → 5,523; gap 477.13 → 477.
    const tab = computeGlobalCheck({ ...family, needShare: 0.9 }, 2025).scenarios.diseaseDeath;
    expect(amount(tab.benefits, 'ahv', 'widow')).toBe(1902);
    expect(amount(tab.benefits, 'ahv', 'orphan')).toBe(951 * 2);
    expect(amount(tab.benefits, 'bvg', 'widow')).toBe(1032);
    expect(amount(tab.benefits, 'bvg', 'orphan')).toBe(344 * 2);
    expect(tab.need).toBe(6000);
    expect(tab.cover).toBe(5523);
    expect(tab.gap).toBe(477);
  });

  it('case 11 — widow and two orphans after an accident (complementary UVG, max 90 %)', () => {
    // UVG: widow 40 % × 6,666.67 = 2,666.67, half orphans 15 % = 1,000 each: 4,666.67 (= the
    // 70 % cap). With the AHV's 3,803.31 at most 90 % = 6,000 → 2,196.69, shared in proportion:
    // widow 2,196.69 × 40/70 = 1,255.25 → 1,255; orphans × 15/70 = 470.72 → 471 each.
    // BVG cut to 0 (6,000 reached). Cover 6,000; need 5,333.33 → no gap.
    const tab = computeGlobalCheck(family, 2025).scenarios.accidentDeath;
    expect(amount(tab.benefits, 'uvg', 'widow')).toBe(1255);
    expect(amount(tab.benefits, 'uvg', 'orphan')).toBe(471 * 2);
    expect(amount(tab.benefits, 'ahv', 'widow')).toBe(1902);
    expect(amount(tab.benefits, 'bvg', 'widow')).toBe(0);
    expect(tab.benefits.find((b) => b.source === 'uvg' && b.kind === 'widow')?.notes).toEqual([
      'complementary',
    ]);
    expect(tab.cover).toBe(6000);
    expect(tab.gap).toBe(0);
  });

  it('a full orphan after an accident: AHV at most 60 % of the maximum, UVG 25 %', () => {
    // A single mother of 40 at 80,000 whose child's father died before. AHV: 2 × 40 % × 2,377.07
    // = 1,901.65 > 60 % × 2,520 = 1,512 → 1,512 (AHVG art. 37 al. 1bis). UVG full orphan 25 % ×
    // 6,666.67 = 1,666.67 → 1,667 (UVG art. 31 al. 1 c; with the AHV 3,178.67 ≤ 6,000). BVG orphan
    // 20 % × 1,719.56 = 343.91 → 344 (room 6,000 − 3,178.67, not cut). Cover 3,522.58 → 3,523;
    // gap 5,333.33 − 3,522.58 = 1,810.75 → 1,811.
    const input: GlobalCheckInput = {
      ...base,
      sex: 'female',
      children: [{ birthDate: '2016-01-01', otherParentDeceased: true }],
    };
    const tab = computeGlobalCheck(input, 2025).scenarios.accidentDeath;
    expect(tab.benefits.map((b) => [b.source, b.kind, b.monthly])).toEqual([
      ['ahv', 'orphan', 1512],
      ['uvg', 'orphan', 1667],
      ['bvg', 'orphan', 344],
    ]);
    expect(tab.cover).toBe(3523);
    expect(tab.gap).toBe(1811);
  });

  it('the pending reform (configurable): no widow pension once the children are 25 or older', () => {
    // A wife of 50 with one child of 26 (not in education). Law in force: AHV widow (she has a
    // child), AHVG art. 24 → 1,902; BVG (45 and married ≥ 5 years), art. 19 → 1,032.
    // Reform (pension only while a child is under 25): none.
    const input: GlobalCheckInput = {
      ...base,
      civilStatus: 'married',
      partner: { birthDate: '1975-01-01', sex: 'female' },
      children: [{ birthDate: '1999-01-01' }],
    };
    const now = computeGlobalCheck(input, 2025).scenarios.diseaseDeath;
    expect(amount(now.benefits, 'ahv', 'widow')).toBe(1902);
    expect(amount(now.benefits, 'bvg', 'widow')).toBe(1032);
    const reform = computeGlobalCheck({ ...input, survivors: { reformWhileChildUnder: 25 } }, 2025)
      .scenarios.diseaseDeath;
    expect(reform.benefits.filter((b) => b.kind === 'widow')).toEqual([]);
  });

  it('a widower: AHV only while a child is under 18 (AHVG art. 24 al. 2)', () => {
    // A woman of 40 at 80,000, husband of 40 without children: no AHV widower's pension, no BVG
    // (under 45), no UVG (widower without a child). With a child of 5: AHV 1,902, BVG 1,032.
    const input: GlobalCheckInput = {
      ...base,
      sex: 'female',
      civilStatus: 'married',
      partner: { birthDate: '1985-01-01' },
    };
    expect(computeGlobalCheck(input, 2025).scenarios.accidentDeath.benefits).toEqual([]);
    const withChild = computeGlobalCheck(
      { ...input, children: [{ birthDate: '2020-01-01' }] },
      2025,
    ).scenarios.diseaseDeath;
    expect(amount(withChild.benefits, 'ahv', 'widow')).toBe(1902);
    expect(amount(withChild.benefits, 'bvg', 'widow')).toBe(1032);
  });
});

describe('the 13th old-age pension (AHVG art. 34bis)', () => {
  it('case 12 — old age only, from 2026: + 1/12 a month; not on IV or survivors', () => {
    // Income 100,000 → 2,520. 2025: no 13th. 2026: 2,520 / 12 = 210 a month → 2,730 in all.
    // The BVG part (1,963.65 as above) is the same both years; cover 2026 4,693.65 → 4,694,
    // gap 6,666.67 − 4,693.65 = 1,973.01 → 1,973.
    const input: GlobalCheckInput = {
      ...base,
      birthDate: '1963-04-10',
      grossIncome: 100000,
      bvgSavings: 300000,
    };
    const y2025 = computeGlobalCheck(input, 2025);
    const y2026 = computeGlobalCheck(input, 2026);
    expect(amount(y2025.scenarios.retirement.benefits, 'ahv', 'retirement')).toBe(2520);
    expect(amount(y2026.scenarios.retirement.benefits, 'ahv', 'retirement')).toBe(2730);
    expect(y2026.scenarios.retirement.cover).toBe(4694);
    expect(y2026.scenarios.retirement.gap).toBe(1973);
    // IV and survivors' pensions are the same in 2025 and 2026, without a 13th line.
    for (const kind of ['diseaseDisability', 'accidentDisability', 'diseaseDeath'] as const) {
      expect(y2026.scenarios[kind].benefits).toEqual(y2025.scenarios[kind].benefits);
      expect(y2026.scenarios[kind].benefits.some((b) => b.notes?.includes('thirteenth'))).toBe(
        false,
      );
    }
  });
});

describe('reference age (AHVG art. 21, AHV 21 transitional provisions)', () => {
  it('case 13 — women: 64 up to 1960, 1961 64 y 3 m, 1962 64 y 6 m, 1963 64 y 9 m, from 1964 65', () => {
    expect(referenceAge('1958-05-01', 'female')).toEqual({ years: 64, months: 0 });
    expect(referenceAge('1960-05-01', 'female')).toEqual({ years: 64, months: 0 });
    expect(referenceAge('1961-05-01', 'female')).toEqual({ years: 64, months: 3 });
    expect(referenceAge('1962-05-01', 'female')).toEqual({ years: 64, months: 6 });
    expect(referenceAge('1963-05-01', 'female')).toEqual({ years: 64, months: 9 });
    expect(referenceAge('1964-05-01', 'female')).toEqual({ years: 65, months: 0 });
    expect(referenceAge('1962-05-01', 'male')).toEqual({ years: 65, months: 0 });
  });

  it('the pension starts the month after the reference age is reached (AHVG art. 21 al. 2)', () => {
    // Born 15 March 1962: 64 y 6 m on 15 September 2026 → from 1 October 2026. Born 10 December
    // 1961: 64 y 3 m on 10 March 2026 → 1 April 2026. A man born 31 January 1960: 65 on
    // 31 January 2025 → 1 February 2025.
    expect(retirementStart('1962-03-15', 'female')).toBe('2026-10-01');
    expect(retirementStart('1961-12-10', 'female')).toBe('2026-04-01');
    expect(retirementStart('1960-01-31', 'male')).toBe('2025-02-01');
  });
});

describe('who has which cover', () => {
  it('the self-employed: no BVG, no UVG, no KTG; own cover counts where it applies', () => {
    // AHV/IV only (2,377.07 at 80,000); an own disability cover of 1,500 a month adds to both
    // disability tabs; a life cover to the death tabs, 3a to retirement.
    const input: GlobalCheckInput = {
      ...base,
      employmentStatus: 'selfEmployed',
      ownCover: [
        { kind: 'disability', monthly: 1500 },
        { kind: 'pillar3a', monthly: 300 },
        { kind: 'life', monthly: 2000 },
      ],
    };
    const s = computeGlobalCheck(input, 2025).scenarios;
    expect(s.accidentDisability.benefits.map((b) => [b.source, b.monthly])).toEqual([
      ['iv', 2377],
      ['own', 1500],
    ]);
    expect(s.accidentDisability.waitingPeriod?.source).toBeNull();
    expect(s.diseaseDisability.cover).toBe(3877);
    expect(s.retirement.benefits.map((b) => [b.source, b.monthly])).toEqual([
      ['ahv', 2377],
      ['own', 300],
    ]);
    expect(s.diseaseDeath.benefits.map((b) => [b.source, b.kind, b.monthly])).toEqual([
      ['own', 'death', 2000],
    ]);
  });

  it('a partial disability counts the earnings still made (IV 60 % at 80,000)', () => {
    // IV 2,377.07 × 60 % = 1,426.24 → 1,426; BVG 1,719.56 × 60 % = 1,031.74 → 1,032; earnings
    // 40 % × 6,666.67 = 2,666.67 → 2,667. Overinsurance room 6,000 − 1,426.24 − 2,666.67
    // = 1,907.09 ≥ 1,031.74. Cover 5,124.65 → 5,125; gap 5,333.33 − 5,124.65 = 208.69 → 209.
    const tab = computeGlobalCheck({ ...base, disabilityDegree: 60 }, 2025).scenarios
      .diseaseDisability;
    expect(amount(tab.benefits, 'iv', 'disability')).toBe(1426);
    expect(amount(tab.benefits, 'bvg', 'disability')).toBe(1032);
    expect(tab.remainingEarnings).toBe(2667);
    expect(tab.cover).toBe(5125);
    expect(tab.gap).toBe(209);
  });
});
