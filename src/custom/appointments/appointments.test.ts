/**
 * The pure pieces of the appointment screens: Swiss local times and the calendar's UTC stand-in,
 * the statuses a form offers, the calendar's events, the map link, the form's and the feedback's
 * bodies, who may give feedback when.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../resources/registry.ts', () => ({ getModel: () => ({ fields: [] }) }));

const {
  addressOfCustomer,
  appointmentBody,
  calendarEventOf,
  canGiveFeedback,
  feedbackBody,
  feedbackErrorsForForm,
  feedbackStatusChoices,
  isFeedbackImageFile,
  isoToSwiss,
  mapLink,
  rangeFilter,
  shortTime,
  statusChoices,
  swissNow,
  swissTimesOf,
  swissToIso,
  swissToday,
  timePlus,
  wallOf,
  wallToIso,
} = await import('./model.ts');

type Record = Parameters<typeof calendarEventOf>[0];

const record = (changes: Partial<Record> = {}): Record =>
  ({
    id: 7,
    clientId: 3,
    clientName: 'Vera Muster',
    consultantId: 2,
    status: 1,
    dateStart: '2026-03-05T08:00:00.000Z',
    dateEnd: '2026-03-05T09:30:00.000Z',
    date: '2026-03-05',
    startTime: '09:00',
    endTime: '10:30',
    street: 'Bahnhofstrasse',
    number: '1',
    zip: '8001',
    city: 'Zürich',
    feedbackId: null,
    version: 4,
    ...changes,
  }) as Record;

describe('Swiss local times', () => {
  it('turns a Swiss date and time into the instant, in winter and in summer', () => {
    expect(swissToIso('2026-03-05', '09:00')).toBe('2026-03-05T08:00:00.000Z');
    expect(swissToIso('2026-07-01', '09:00:00')).toBe('2026-07-01T07:00:00.000Z');
    expect(swissToIso('2026-07-01', '9')).toBeUndefined();
    expect(swissToIso('1.7.2026', '09:00')).toBeUndefined();
  });

  it('reads an instant back as the Swiss date and time', () => {
    expect(isoToSwiss('2026-07-01T07:00:00.000Z')).toEqual({ date: '2026-07-01', time: '09:00' });
    expect(isoToSwiss('2026-12-31T23:30:00Z')).toEqual({ date: '2027-01-01', time: '00:30' });
    expect(isoToSwiss('')).toBeUndefined();
  });

  it("takes an appointment's stored date and times, else its instants", () => {
    expect(swissTimesOf(record())).toEqual({ date: '2026-03-05', start: '09:00', end: '10:30' });
    expect(
      swissTimesOf(record({ date: null, startTime: null, endTime: null } as Partial<Record>)),
    ).toEqual({ date: '2026-03-05', start: '09:00', end: '10:30' });
  });

  it('shortens times and adds minutes within the day', () => {
    expect(shortTime('08:15:00')).toBe('08:15');
    expect(shortTime('24:00')).toBeUndefined();
    expect(timePlus('09:30', 60)).toBe('10:30');
    expect(timePlus('23:30', 60)).toBe('23:59');
  });

  it('runs the calendar in UTC with Swiss wall-clock hours', () => {
    expect(wallOf('2026-07-01', '09:00')).toBe('2026-07-01T09:00:00Z');
    // A dropped event at 14:15 on the calendar is 14:15 in Zurich (12:15 UTC in summer).
    expect(wallToIso(new Date('2026-07-01T14:15:00Z'))).toBe('2026-07-01T12:15:00.000Z');
    expect(swissNow(new Date('2026-01-10T10:00:00Z')).toISOString()).toBe(
      '2026-01-10T11:00:00.000Z',
    );
    expect(swissToday(new Date('2026-01-10T23:30:00Z'))).toBe('2026-01-11');
    // The visible week (Monday to the next Monday, exclusive) as the API's range.
    expect(rangeFilter(new Date('2026-06-29T00:00:00Z'), new Date('2026-07-06T00:00:00Z'))).toEqual(
      {
        dateStart_gte: '2026-06-28T22:00:00.000Z',
        dateStart_lte: '2026-07-05T21:59:59.000Z',
      },
    );
  });
});

describe('statuses', () => {
  it('offers the starting statuses on create', () => {
    expect(statusChoices(undefined)).toEqual([1, 3, 15]);
  });

  it('offers the stored status and its allowed moves, never the feedback ones', () => {
    expect(statusChoices(1)).toEqual([1, 3, 5, 6, 15]);
    expect(statusChoices(5)).toEqual([5, 1, 3]);
    expect(statusChoices(15)).toEqual([15, 1, 3, 5]);
    for (const stored of [2, 7, 10]) expect(statusChoices(stored)).toEqual([stored]);
  });

  it('offers the statuses feedback may set by whether it took place', () => {
    expect(feedbackStatusChoices(true)).toEqual([2, 10]);
    expect(feedbackStatusChoices(false)).toEqual([7]);
  });

  it("takes a phone's photo in the feedback's image picker, by its type or its name", () => {
    const file = (name: string, type = '') => ({ name, type });
    expect(isFeedbackImageFile(file('IMG_0001.JPG', 'image/jpeg'))).toBe(true);
    expect(isFeedbackImageFile(file('screen.png', 'image/png'))).toBe(true);
    expect(isFeedbackImageFile(file('photo.webp', 'image/webp'))).toBe(true);
    expect(isFeedbackImageFile(file('IMG_4711.HEIC', 'image/heic'))).toBe(true);
    // A HEIC on a system that gives it no type, or a generic one.
    expect(isFeedbackImageFile(file('IMG_4711.HEIC'))).toBe(true);
    expect(isFeedbackImageFile(file('IMG_4712.heif', 'application/octet-stream'))).toBe(true);
    expect(isFeedbackImageFile(file('scan.pdf', 'application/pdf'))).toBe(false);
    expect(isFeedbackImageFile(file('anim.gif', 'image/gif'))).toBe(false);
    expect(isFeedbackImageFile(file('photo'))).toBe(false);
  });
});

describe('calendar events', () => {
  it('places an appointment at its Swiss hours, movable while planned', () => {
    const event = calendarEventOf(record());
    expect(event).toMatchObject({
      id: '7',
      title: 'Vera Muster · Zürich',
      start: '2026-03-05T09:00:00Z',
      end: '2026-03-05T10:30:00Z',
      editable: true,
    });
    expect(calendarEventOf(record({ status: 3 }))?.editable).toBe(true);
    for (const status of [2, 5, 6, 7, 10, 15] as const)
      expect(calendarEventOf(record({ status }))?.editable).toBe(false);
    expect(calendarEventOf(record({ status: 5 }))?.backgroundColor).not.toBe(
      calendarEventOf(record({ status: 2 }))?.backgroundColor,
    );
  });
});

describe('address', () => {
  it('links the address to an OpenStreetMap search', () => {
    expect(mapLink(record())).toBe(
      'https://www.openstreetmap.org/search?query=Bahnhofstrasse%201%2C%208001%20Z%C3%BCrich',
    );
    expect(mapLink({ street: null, zip: '', city: undefined })).toBeUndefined();
  });

  it("takes the customer's address number as the appointment's number", () => {
    expect(
      addressOfCustomer({ street: 'Weg', addressNumber: '3a', zip: '3000', city: 'Bern' }),
    ).toEqual({ street: 'Weg', number: '3a', zip: '3000', city: 'Bern' });
  });
});

describe('form body', () => {
  it('sends the Swiss times and the same moments, none of the server-owned fields', () => {
    const body = appointmentBody({
      ...record(),
      date: '2026-07-01',
      startTime: '14:00',
      endTime: '15:00:00',
      status: 1,
      cancelReason: '',
      cancelStatus: null,
      canton: 'ZH',
      clientName: 'x',
      feedbackId: null,
    });
    expect(body).toMatchObject({
      date: '2026-07-01',
      startTime: '14:00',
      endTime: '15:00',
      dateStart: '2026-07-01T12:00:00.000Z',
      dateEnd: '2026-07-01T13:00:00.000Z',
    });
    for (const key of ['canton', 'clientName', 'feedbackId', 'cancelReason', 'cancelStatus'])
      expect(body).not.toHaveProperty(key);
  });

  it('keeps the cancellation when cancelled', () => {
    const body = appointmentBody({ ...record(), status: 6, cancelReason: 'krank' });
    expect(body.cancelReason).toBe('krank');
  });
});

describe('feedback', () => {
  it('can be given once a planned appointment without feedback has begun', () => {
    const now = new Date('2026-03-05T08:30:00Z');
    expect(canGiveFeedback(record(), now)).toBe(true);
    expect(canGiveFeedback(record(), new Date('2026-03-05T07:59:00Z'))).toBe(false);
    expect(canGiveFeedback(record({ feedbackId: 3 }), now)).toBe(false);
    expect(canGiveFeedback(record({ status: 5 }), now)).toBe(false);
    expect(canGiveFeedback(record({ status: 3 }), now)).toBe(true);
  });

  it('sends what took place, and the reminder and follow-up only when chosen', () => {
    expect(
      feedbackBody({
        hasTakenPlace: 'yes',
        isReachedByPhone: true,
        status: '10' as unknown as number,
        note: 'gut',
        comment: '',
        withReminder: false,
        reminder: { dueDate: '2026-04-01', subject: 'x' },
        withFollowUp: false,
        followUp: { date: '2026-04-02', startTime: '09:00', endTime: '10:00' },
      }),
    ).toEqual({ hasTakenPlace: true, status: 10, note: 'gut' });
    expect(
      feedbackBody({
        hasTakenPlace: 'no',
        isReachedByPhone: false,
        status: 7,
        withReminder: true,
        reminder: { dueDate: '2026-04-01', time: '08:30:00', subject: 'Offerte', description: '' },
        withFollowUp: true,
        followUp: {
          date: '2026-07-02',
          startTime: '09:00',
          endTime: '10:00',
          address: 'Weg',
          addressNo: '3',
          zipcode: '3000',
          city: 'Bern',
          type: 'follow_up',
        },
      }),
    ).toEqual({
      hasTakenPlace: false,
      isReachedByPhone: false,
      status: 7,
      reminder: { dueDate: '2026-04-01', time: '08:30', subject: 'Offerte' },
      followUpAppointment: {
        dateStart: '2026-07-02T07:00:00.000Z',
        dateEnd: '2026-07-02T08:00:00.000Z',
        address: 'Weg',
        addressNo: '3',
        zipcode: '3000',
        city: 'Bern',
        type: 'follow_up',
      },
    });
  });

  it("shows the follow-up's errors on the dialog's inputs", () => {
    expect(
      feedbackErrorsForForm({
        'followUpAppointment.dateStart': 'a',
        'followUpAppointment.dateEnd': 'b',
        'reminder.dueDate': 'c',
        note: 'd',
      }),
    ).toEqual({
      'followUp.date': 'a',
      'followUp.endTime': 'b',
      'reminder.dueDate': 'c',
      note: 'd',
    });
  });
});
