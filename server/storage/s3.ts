/**
 * Documents on S3-compatible object storage (AWS S3, MinIO, Ceph, Exoscale SOS…), the same
 * interface as the disk storage (./index.ts), so several app servers share the files without a
 * shared volume. Chosen with STORAGE=s3 and the S3_* settings (README §Configuration).
 */
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Storage } from './index.ts';

export interface S3Settings {
  bucket: string;
  region: string;
  /** The service's URL for a non-AWS store (MinIO, a local s3rver); unset for AWS. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `http://host/bucket/key` instead of `http://bucket.host/key` (MinIO, s3rver). */
  forcePathStyle: boolean;
  /** Objects are stored under this prefix (several apps in one bucket). */
  prefix?: string;
}

const KEY = /^[a-z0-9-]+(?:\/[a-z0-9-]+)*\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/;

const missing = (error: unknown): boolean =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    error.$metadata.httpStatusCode === 404);

export class S3Storage implements Storage {
  readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
    });
  }

  private objectKey(key: string): string {
    // Keys are the server's own (newKey); checked so a bug can never address another object.
    if (!KEY.test(key)) throw new Error(`invalid storage key ${key}`);
    return `${this.settings.prefix ?? ''}${key}`;
  }

  /**
   * Streams the upload (length unknown: a multipart upload in 5 MB parts). An object appears
   * only when the upload completes; a failed one is aborted, so nothing is left behind.
   */
  async put(key: string, data: Readable): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.objectKey(key), Body: data },
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      data.destroy();
      throw error;
    }
  }

  async get(key: string): Promise<Readable | undefined> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
      return answer.Body as Readable | undefined;
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
    );
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(
        new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
      return true;
    } catch (error) {
      if (missing(error)) return false;
      throw error;
    }
  }
}

/** The S3 settings from the environment (STORAGE=s3); throws naming what is missing. */
export function s3SettingsFromEnv(env: NodeJS.ProcessEnv = process.env): S3Settings {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) throw new Error('STORAGE=s3 needs S3_BUCKET');
  const flag = env.S3_FORCE_PATH_STYLE?.trim().toLowerCase();
  return {
    bucket,
    region: env.S3_REGION?.trim() || 'us-east-1',
    endpoint: env.S3_ENDPOINT?.trim() || undefined,
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: flag === '1' || flag === 'true',
    prefix: env.S3_PREFIX?.trim() || undefined,
  };
}
